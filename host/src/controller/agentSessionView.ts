import type {
  AvailableCommand,
  SessionConfigOption,
  SessionModeState,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { AgentConfigOption, AgentSession } from '@webbridge/contract';

/** What the host knows of an ACP session beside its messages: the snapshot's `agents.session` less its availability. */
export type SessionView = Omit<AgentSession, 'agentId' | 'canContinue' | 'reason'>;

/** A session the host knows nothing of yet. */
export const EMPTY_VIEW: SessionView = Object.freeze({ configOptions: [], commands: [], plan: [] });

/** The view after a `session/new`, `load` or `resume` answer (its modes and config options). */
export function viewOfOpened(
  view: SessionView,
  opened: { readonly modes?: SessionModeState | null; readonly configOptions?: SessionConfigOption[] | null },
): SessionView {
  let next = view;
  if (opened.modes != null) next = { ...next, modes: modesOf(opened.modes) };
  if (opened.configOptions != null)
    next = { ...next, configOptions: opened.configOptions.map(toConfigOption) };
  return next;
}

/**
 * The view after a session update, or undefined when the update is not about the view (message
 * and thought chunks, tool calls: those are messages).
 */
export function viewAfter(view: SessionView, update: SessionUpdate): SessionView | undefined {
  switch (update.sessionUpdate) {
    case 'plan':
      return {
        ...view,
        plan: update.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })),
      };
    case 'available_commands_update':
      return { ...view, commands: update.availableCommands.map(toCommand) };
    case 'current_mode_update':
      return view.modes === undefined
        ? view
        : { ...view, modes: { ...view.modes, current: update.currentModeId } };
    case 'config_option_update':
      return { ...view, configOptions: update.configOptions.map(toConfigOption) };
    case 'usage_update':
      return { ...view, usage: { used: update.used, size: update.size } };
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'tool_call':
    case 'tool_call_update':
    case 'session_info_update':
    case 'notice':
    case 'compaction_update':
    case 'compaction_summary_chunk':
      return undefined;
    default: {
      const never: never = update;
      return never;
    }
  }
}

/** The contract's form of an agent's setting. */
function toConfigOption(option: SessionConfigOption): AgentConfigOption {
  const shown: AgentConfigOption = {
    id: option.id,
    name: option.name,
    type: option.type,
    currentValue: option.currentValue,
  };
  if (option.description != null) shown.description = option.description;
  if (option.category != null) shown.category = option.category;
  if (option.type === 'select') {
    // Grouped options are shown flat: the phone lists them in one menu.
    shown.options = option.options.flatMap((entry) =>
      'group' in entry
        ? entry.options.map((o) => ({ value: o.value, name: o.name }))
        : [{ value: entry.value, name: entry.name }],
    );
  }
  return shown;
}

function modesOf(state: SessionModeState): NonNullable<SessionView['modes']> {
  return {
    current: state.currentModeId,
    list: state.availableModes.map((m) =>
      m.description == null
        ? { id: m.id, name: m.name }
        : { id: m.id, name: m.name, description: m.description },
    ),
  };
}

function toCommand(command: AvailableCommand) {
  return { name: command.name, description: command.description };
}
