import {
  type AgentApp,
  type AgentContext,
  agent,
  methods,
  type PermissionOption,
  type RequestPermissionResponse,
  type SessionUpdate,
  type StopReason,
  type ToolCallUpdate,
} from '@agentclientprotocol/sdk';

/** What a scripted turn of {@link miniAgent} can do. */
interface MiniTurn {
  readonly sessionId: string;
  /** The prompt's text. */
  readonly text: string;
  /** Aborted when the client cancels the turn. */
  readonly signal: AbortSignal;
  update(update: SessionUpdate): Promise<void>;
  /** One message chunk per word (spaces kept). */
  say(text: string): Promise<void>;
  ask(
    toolCall: ToolCallUpdate,
    options?: readonly PermissionOption[],
    signal?: AbortSignal,
  ): Promise<RequestPermissionResponse>;
  write(path: string, content: string): Promise<void>;
}

/** Options of {@link miniAgent}. */
export interface MiniAgentOptions {
  /** Runs each prompt; its answer is the stop reason. @default echoes the prompt */
  readonly turn?: (turn: MiniTurn) => Promise<StopReason>;
  /** Offer `session/load` (replaying `history`). @default true */
  readonly load?: boolean;
  /** Offer `session/resume`. @default false */
  readonly resume?: boolean;
  /** Sessions `session/list` shows beside the ones made here. */
  readonly listed?: readonly { readonly sessionId: string; readonly cwd: string; readonly title?: string }[];
  /** What `session/load` replays. */
  readonly history?: readonly SessionUpdate[];
  /** Image prompts. @default false */
  readonly image?: boolean;
}

/** The permission options most agents offer. */
export const MINI_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
];

/**
 * A small ACP agent on the SDK's agent side, in the host's own process, for the controller's
 * tests (the richer scripted fake of the end-to-end tests lives in tests/support/acp): sessions
 * with two modes and a model setting, list, load (replaying `history`), cancel, and prompt turns
 * run by `options.turn`.
 */
export function miniAgent(options: MiniAgentOptions = {}): { app: () => AgentApp; prompts: string[] } {
  const prompts: string[] = [];
  const made: { sessionId: string; cwd: string }[] = [];
  const running = new Map<string, AbortController>();
  const modes = {
    currentModeId: 'ask',
    availableModes: [
      { id: 'ask', name: 'Ask' },
      { id: 'code', name: 'Code' },
    ],
  };
  const model = (value: string) => [
    {
      id: 'model',
      name: 'Model',
      type: 'select' as const,
      currentValue: value,
      options: [
        { value: 'small', name: 'Small' },
        { value: 'large', name: 'Large' },
      ],
    },
  ];
  const notify = (client: AgentContext, sessionId: string, update: SessionUpdate) =>
    client.notify(methods.client.session.update, { sessionId, update });
  const app = () =>
    agent({ name: 'mini-agent' })
      .onRequest(methods.agent.initialize, () => ({
        protocolVersion: 1,
        agentInfo: { name: 'mini-agent', title: 'Mini Agent', version: '0.1.0' },
        agentCapabilities: {
          loadSession: options.load ?? true,
          promptCapabilities: { image: options.image ?? false },
          sessionCapabilities: { list: {}, ...(options.resume === true ? { resume: {} } : {}) },
        },
        authMethods: [],
      }))
      .onRequest(methods.agent.session.new, ({ params }) => {
        const sessionId = `mini-${made.length + 1}`;
        made.push({ sessionId, cwd: params.cwd });
        return { sessionId, modes, configOptions: model('small') };
      })
      .onRequest(methods.agent.session.load, async ({ params, client }) => {
        for (const update of options.history ?? []) await notify(client, params.sessionId, update);
        return { modes, configOptions: model('small') };
      })
      .onRequest(methods.agent.session.resume, () => ({ modes, configOptions: model('small') }))
      .onRequest(methods.agent.session.list, () => ({ sessions: [...(options.listed ?? []), ...made] }))
      .onRequest(methods.agent.session.setMode, async ({ params, client }) => {
        await notify(client, params.sessionId, {
          sessionUpdate: 'current_mode_update',
          currentModeId: params.modeId,
        });
        return {};
      })
      .onRequest(methods.agent.session.setConfigOption, ({ params }) => ({
        configOptions: model(String(params.value)),
      }))
      .onNotification(methods.agent.session.cancel, ({ params }) => running.get(params.sessionId)?.abort())
      .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
        const text = params.prompt.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('');
        prompts.push(text);
        const abort = new AbortController();
        running.set(params.sessionId, abort);
        const { sessionId } = params;
        const turn: MiniTurn = {
          sessionId,
          text,
          signal: abort.signal,
          update: (update) => notify(client, sessionId, update),
          say: async (words) => {
            for (const word of words.match(/\S+\s*/g) ?? []) {
              await notify(client, sessionId, {
                sessionUpdate: 'agent_message_chunk',
                content: { type: 'text', text: word },
              });
            }
          },
          ask: (toolCall, offered = MINI_OPTIONS, signal) =>
            client.request(
              methods.client.session.requestPermission,
              { sessionId, toolCall, options: [...offered] },
              signal === undefined ? undefined : { cancellationSignal: signal },
            ),
          write: async (path, content) => {
            await client.request(methods.client.fs.writeTextFile, { sessionId, path, content });
          },
        };
        try {
          const stopReason = await (
            options.turn ?? ((t) => t.say(`You said: ${t.text}`).then(() => 'end_turn'))
          )(turn);
          return { stopReason: abort.signal.aborted ? 'cancelled' : stopReason };
        } finally {
          running.delete(sessionId);
        }
      });
  return { app, prompts };
}
