import { existsSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import {
  ALL_PERMISSION_OPTIONS,
  type FakeAgentEvent,
  type FakeAgentScript,
  type FakeSessionRecord,
  type FakeStep,
  type FakeTurn,
} from './fakeAgentScript';

/** What the fake does that only a process can (a child supplies these; in-process has defaults). */
export interface FakeAgentIo {
  /** Ends the agent: stderr text and exit code (in-process: closes the connection). */
  crash(stderr: string, code: number): void;
  /** Writes one line to stdout as is (child only). */
  writeLine(line: string): void;
  /** Called with every event (the child appends them to its log file). */
  onEvent?(event: FakeAgentEvent): void;
  /** Called when the sessions changed (the child saves them to its state file). */
  onSessions?(sessions: readonly FakeSessionRecord[]): void;
}

/** A scripted ACP agent built on the SDK's agent side. */
export interface FakeAgent {
  /** The agent app: `client.connect(fake.app)` in-process, or `app.connect(ndJsonStream(...))`. */
  readonly app: acp.AgentApp;
  /** What it received and did, in order. */
  readonly events: FakeAgentEvent[];
  /** Its sessions by id (new, loaded and scripted ones). */
  readonly sessions: Map<string, FakeSessionRecord>;
  /** Queues more turns after the scripted ones. */
  queue(...turns: FakeTurn[]): void;
}

class Cancelled extends Error {}

const DEFAULT_INFO: acp.Implementation = { name: 'fake-agent', title: 'Fake Agent', version: '1.0.0' };

/**
 * A faithful scripted ACP agent: `initialize` (capabilities, auth methods), sessions (new, list,
 * load replaying history, resume, close), modes and config options, and prompt turns that run
 * the script's steps (every update kind, permission requests, file and terminal requests to the
 * client, cancel, crash, malformed output). Without a scripted turn a prompt is echoed back.
 *
 * @example
 * const fake = createFakeAgent({ turns: [turn(say('Hello there'))] });
 * await acp.client().onNotification(...).connectWith(fake.app, async (ctx) => { ... });
 */
export function createFakeAgent(script: FakeAgentScript, io: Partial<FakeAgentIo> = {}): FakeAgent {
  const events: FakeAgentEvent[] = [];
  const sessions = new Map<string, FakeSessionRecord>(
    (script.sessions ?? []).map((record) => [record.sessionId, structuredClone(record)]),
  );
  const turns: FakeTurn[] = [...(script.turns ?? [])];
  const running = new Map<string, AbortController>();
  let connection: acp.AgentConnection | undefined;
  let signedIn = false;
  let sequence = sessions.size;

  const log = (event: FakeAgentEvent) => {
    events.push(event);
    io.onEvent?.(event);
  };
  const saveSessions = () => io.onSessions?.([...sessions.values()]);
  const crash =
    io.crash ??
    ((stderr: string) => {
      connection?.close(new Error(stderr));
    });
  const writeLine =
    io.writeLine ??
    (() => {
      throw new Error('rawLine and oversizeLine need the fake agent as a child process');
    });

  const checkAuth = () => {
    const rule = script.requireAuth;
    if (!rule || signedIn) return;
    if (typeof rule === 'object' && existsSync(rule.untilFileExists)) return;
    throw acp.RequestError.authRequired(undefined, 'Sign in first: run `fake-agent login` on the host.');
  };
  const sessionOf = (sessionId: string) => {
    const record = sessions.get(sessionId);
    if (!record) throw acp.RequestError.sessionNotFound(sessionId);
    return record;
  };
  const stateOf = (record: FakeSessionRecord) => ({
    ...(record.modes ? { modes: record.modes } : {}),
    ...(record.configOptions ? { configOptions: record.configOptions } : {}),
  });

  const app = acp
    .agent({ name: 'fake-agent' })
    .onConnect((opened) => {
      connection = opened;
    })
    .onRequest(acp.methods.agent.initialize, async ({ params, signal }) => {
      log({ type: 'received', method: 'initialize', params });
      await sleep(script.delays?.initialize ?? 0, signal);
      return {
        protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
          ...script.capabilities,
        },
        authMethods: [...(script.authMethods ?? [])],
        agentInfo: script.agentInfo ?? DEFAULT_INFO,
      };
    })
    .onRequest(acp.methods.agent.authenticate, ({ params }) => {
      log({ type: 'received', method: 'authenticate', params });
      if (!(script.authMethods ?? []).some((method) => method.id === params.methodId)) {
        throw acp.RequestError.invalidParams(undefined, `Unknown auth method ${params.methodId}`);
      }
      signedIn = true;
      return {};
    })
    .onRequest(acp.methods.agent.session.new, async ({ params, signal }) => {
      log({ type: 'received', method: 'session/new', params });
      checkAuth();
      await sleep(script.delays?.newSession ?? 0, signal);
      const record: FakeSessionRecord = {
        sessionId: `fake-session-${++sequence}`,
        cwd: params.cwd,
        updatedAt: new Date().toISOString(),
        history: [],
        ...(script.modes ? { modes: structuredClone(script.modes) } : {}),
        ...(script.configOptions ? { configOptions: structuredClone([...script.configOptions]) } : {}),
      };
      sessions.set(record.sessionId, record);
      saveSessions();
      return { sessionId: record.sessionId, ...stateOf(record) };
    })
    .onRequest(acp.methods.agent.session.list, ({ params }) => {
      log({ type: 'received', method: 'session/list', params });
      checkAuth();
      const listed = [...sessions.values()]
        .filter((record) => !params.cwd || record.cwd === params.cwd)
        .sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''))
        .map((record) => ({
          sessionId: record.sessionId,
          cwd: record.cwd,
          title: record.title ?? null,
          updatedAt: record.updatedAt ?? null,
        }));
      return { sessions: listed };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      log({ type: 'received', method: 'session/load', params });
      checkAuth();
      const record = sessionOf(params.sessionId);
      for (const update of record.history) {
        await client.notify(acp.methods.client.session.update, { sessionId: record.sessionId, update });
      }
      return stateOf(record);
    })
    .onRequest(acp.methods.agent.session.resume, ({ params }) => {
      log({ type: 'received', method: 'session/resume', params });
      checkAuth();
      return stateOf(sessionOf(params.sessionId));
    })
    .onRequest(acp.methods.agent.session.close, ({ params }) => {
      log({ type: 'received', method: 'session/close', params });
      running.get(params.sessionId)?.abort();
      return {};
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
      log({ type: 'received', method: 'session/set_mode', params });
      const record = sessionOf(params.sessionId);
      if (!record.modes?.availableModes.some((mode) => mode.id === params.modeId)) {
        throw acp.RequestError.invalidParams(undefined, `Unknown mode ${params.modeId}`);
      }
      record.modes.currentModeId = params.modeId;
      saveSessions();
      await client.notify(acp.methods.client.session.update, {
        sessionId: record.sessionId,
        update: { sessionUpdate: 'current_mode_update', currentModeId: params.modeId },
      });
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
      log({ type: 'received', method: 'session/set_config_option', params });
      const record = sessionOf(params.sessionId);
      const option = record.configOptions?.find((candidate) => candidate.id === params.configId);
      if (!option || !record.configOptions) {
        throw acp.RequestError.invalidParams(undefined, `Unknown config option ${params.configId}`);
      }
      if (option.type === 'boolean' && typeof params.value === 'boolean') option.currentValue = params.value;
      else if (option.type === 'select' && typeof params.value === 'string')
        option.currentValue = params.value;
      else throw acp.RequestError.invalidParams(undefined, `Wrong value for ${params.configId}`);
      saveSessions();
      return { configOptions: record.configOptions };
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      log({ type: 'received', method: 'session/cancel', params });
      log({ type: 'cancel', sessionId: params.sessionId });
      running.get(params.sessionId)?.abort();
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
      log({ type: 'received', method: 'session/prompt', params });
      checkAuth();
      const record = sessionOf(params.sessionId);
      if (running.has(record.sessionId)) {
        throw acp.RequestError.invalidRequest(undefined, 'A prompt is already running in this session');
      }
      const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
      for (const block of params.prompt) {
        record.history.push({ sessionUpdate: 'user_message_chunk', content: block });
      }
      const scripted = turns.shift() ?? { steps: [{ type: 'say', text }] };
      const cancel = new AbortController();
      signal.addEventListener('abort', () => cancel.abort(), { once: true });
      running.set(record.sessionId, cancel);
      const runner = new TurnRunner(record, client, cancel.signal, { log, crash, writeLine });
      try {
        await runner.run(scripted.steps);
      } catch (error) {
        if (!(error instanceof Cancelled)) throw error;
      } finally {
        running.delete(record.sessionId);
        record.updatedAt = new Date().toISOString();
        if (!record.title && text) record.title = text.slice(0, 60);
        saveSessions();
      }
      if (cancel.signal.aborted) return { stopReason: 'cancelled' };
      const response = { stopReason: scripted.stopReason ?? 'end_turn' };
      // `usage` is the unstable PromptResponse field; the stable types do not name it.
      return (scripted.usage ? { ...response, usage: scripted.usage } : response) as acp.PromptResponse;
    });

  return { app, events, sessions, queue: (...more) => void turns.push(...more) };
}

interface TurnIo {
  readonly log: (event: FakeAgentEvent) => void;
  readonly crash: (stderr: string, code: number) => void;
  readonly writeLine: (line: string) => void;
}

/** Runs one turn's steps against the client, stopping at a cancel. */
class TurnRunner {
  constructor(
    private readonly record: FakeSessionRecord,
    private readonly client: acp.AgentContext,
    private readonly cancelled: AbortSignal,
    private readonly io: TurnIo,
  ) {}

  async run(steps: readonly FakeStep[]): Promise<void> {
    for (const step of steps) {
      if (this.cancelled.aborted) throw new Cancelled();
      await this.step(step);
    }
  }

  private async send(update: acp.SessionUpdate): Promise<void> {
    this.record.history.push(update);
    await this.client.notify(acp.methods.client.session.update, { sessionId: this.record.sessionId, update });
  }

  private async chunks(
    kind: 'agent_message_chunk' | 'agent_thought_chunk',
    text: string | readonly string[],
    delayMs = 0,
  ) {
    for (const piece of typeof text === 'string' ? words(text) : text) {
      if (this.cancelled.aborted) throw new Cancelled();
      await this.send({ sessionUpdate: kind, content: { type: 'text', text: piece } });
      await sleep(delayMs, this.cancelled);
    }
  }

  private async step(step: FakeStep): Promise<void> {
    const sessionId = this.record.sessionId;
    switch (step.type) {
      case 'say':
        return this.chunks('agent_message_chunk', step.text, step.delayMs);
      case 'think':
        return this.chunks('agent_thought_chunk', step.text, step.delayMs);
      case 'update':
        return this.send(step.update);
      case 'permission': {
        const options = step.options ?? ALL_PERMISSION_OPTIONS;
        const { outcome } = await this.client.request(acp.methods.client.session.requestPermission, {
          sessionId,
          toolCall: step.toolCall,
          options: [...options],
        });
        this.io.log({ type: 'permission', toolCallId: step.toolCall.toolCallId, outcome });
        if (outcome.outcome === 'cancelled' || this.cancelled.aborted) throw new Cancelled();
        const chosen = options.find((option) => option.optionId === outcome.optionId);
        const allowed = chosen ? chosen.kind.startsWith('allow') : outcome.optionId.startsWith('allow');
        return this.run((allowed ? step.onAllow : step.onReject) ?? []);
      }
      case 'writeFile': {
        let error: string | undefined;
        try {
          await this.client.request(acp.methods.client.fs.writeTextFile, {
            sessionId,
            path: step.path,
            content: step.content,
          });
        } catch (caught) {
          error = messageOf(caught);
        }
        this.io.log({ type: 'write', path: step.path, ...(error === undefined ? {} : { error }) });
        if (step.toolCallId === undefined) return;
        return this.send({
          sessionUpdate: 'tool_call_update',
          toolCallId: step.toolCallId,
          status: error === undefined ? 'completed' : 'failed',
          ...(error === undefined
            ? {}
            : { content: [{ type: 'content', content: { type: 'text', text: error } }] }),
        });
      }
      case 'readFile': {
        try {
          const { content } = await this.client.request(acp.methods.client.fs.readTextFile, {
            sessionId,
            path: step.path,
            ...(step.line === undefined ? {} : { line: step.line }),
            ...(step.limit === undefined ? {} : { limit: step.limit }),
          });
          this.io.log({ type: 'read', path: step.path, content });
          if (step.echo)
            await this.send({
              sessionUpdate: 'agent_message_chunk',
              content: { type: 'text', text: content },
            });
        } catch (caught) {
          const error = messageOf(caught);
          this.io.log({ type: 'read', path: step.path, error });
          if (step.echo)
            await this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: error } });
        }
        return;
      }
      case 'terminal':
        return this.terminal(step);
      case 'wait':
        return sleep(step.ms, this.cancelled);
      case 'waitForCancel':
        await new Promise<void>((resolve) => {
          if (this.cancelled.aborted) resolve();
          this.cancelled.addEventListener('abort', () => resolve(), { once: true });
        });
        throw new Cancelled();
      case 'crash':
        this.io.crash(step.stderr, step.code ?? 1);
        // A crashed agent says nothing more; the client sees its stream end.
        await new Promise(() => {});
        return;
      case 'rawLine':
        return this.io.writeLine(step.line);
      case 'oversizeLine': {
        const frame = (text: string) =>
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'session/update',
            params: {
              sessionId,
              update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
            },
          });
        return this.io.writeLine(frame('x'.repeat(Math.max(0, step.bytes - frame('').length))));
      }
      case 'fail':
        throw new acp.RequestError(step.code, step.message, step.data);
      default: {
        const never: never = step;
        throw new Error(`unknown step ${JSON.stringify(never)}`);
      }
    }
  }

  private async terminal(step: Extract<FakeStep, { type: 'terminal' }>): Promise<void> {
    const toolCallId = step.toolCallId ?? 'terminal-1';
    let handle: acp.TerminalHandle;
    try {
      handle = await this.client.createTerminal({
        sessionId: this.record.sessionId,
        command: step.command,
        args: [...(step.args ?? [])],
        ...(step.cwd === undefined ? {} : { cwd: step.cwd }),
        ...(step.outputByteLimit === undefined ? {} : { outputByteLimit: step.outputByteLimit }),
      });
    } catch (caught) {
      this.io.log({ type: 'terminal', error: messageOf(caught) });
      return this.send({
        sessionUpdate: 'tool_call',
        toolCallId,
        title: [step.command, ...(step.args ?? [])].join(' '),
        kind: 'execute',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: messageOf(caught) } }],
      });
    }
    await this.send({
      sessionUpdate: 'tool_call',
      toolCallId,
      title: [step.command, ...(step.args ?? [])].join(' '),
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: handle.id }],
    });
    if (step.kill) await handle.kill();
    const exit = await handle.waitForExit();
    const { output } = await handle.currentOutput();
    await handle.release();
    this.io.log({ type: 'terminal', terminalId: handle.id, output, exit });
    await this.send({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: exit.exitCode === 0 ? 'completed' : 'failed',
      rawOutput: { output, exitCode: exit.exitCode ?? null, signal: exit.signal ?? null },
    });
  }
}

/** Splits text into words, each keeping the space before it (as models stream them). */
function words(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [text];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Waits, or ends early (without throwing) when the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
