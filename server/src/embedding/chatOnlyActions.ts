import { ProtocolError, type Settings } from '@webbridge/contract';
import type { HostActionHandlers } from '../HostAdapter';
import type { ProjectionStore } from './createProjectionStore';

/** The actions {@link chatOnlyActions} answers. */
export type ChatOnlyActionName =
  | 'updateSettings'
  | 'model'
  | 'selectProject'
  | 'approve'
  | 'workspace'
  | 'continue'
  | 'branch'
  | 'editMessage'
  | 'regenerate'
  | 'pushStatus'
  | 'subscribePush'
  | 'unsubscribePush'
  | 'reportPresence'
  | 'agentMode'
  | 'agentOption'
  | 'agentSessions'
  | 'openAgentSession';

const refuse = (detail: string) => (): never => {
  throw new ProtocolError('not_applicable', detail);
};
const notFound = (what: string): never => {
  // The reference host's words, so an app built on these helpers answers as the host does.
  throw new ProtocolError('not_found', `There is no such ${what}.`);
};

/**
 * Handlers for the actions of an app that only chats (its projection has no tools, no
 * approvals, no branches, no workspace root and one project), over its projection store:
 *
 * - `updateSettings` merges the settings into the projection and publishes it;
 * - `model` makes any model of `models.list` the current one; another id is `not_found`;
 * - `selectProject` accepts the current project and nothing else (`not_found`);
 * - `approve` is `not_found`: there is never an approval pending;
 * - `workspace`, `continue`, `branch`, `editMessage` and `regenerate` are `not_applicable` (422);
 * - push: `pushStatus`, `subscribePush` and `unsubscribePush` are `not_applicable` (such an app
 *   sends no push), `reportPresence` is taken and changes nothing;
 * - agents: `agentMode`, `agentOption`, `agentSessions` and `openAgentSession` are
 *   `not_applicable` (such an app answers itself and runs no ACP agent).
 *
 * Spread them into the adapter's `actions` before the app's own handlers; a handler written
 * after the spread replaces the default. Like every handler they run inside `runOnMain`.
 *
 * @example
 * ```ts
 * actions: { ...chatOnlyActions(store), ...conversations.actions, send, stop },
 * ```
 */
export function chatOnlyActions(store: ProjectionStore): Pick<HostActionHandlers, ChatOnlyActionName> {
  const state = store.readState;
  return {
    updateSettings(action) {
      // Parsed JSON has no `undefined`: each key the partial carries holds a value.
      const settings = { ...state().settings, ...action.settings } as Settings;
      store.publish({ ...state(), settings });
      return { settings };
    },
    model({ modelId }) {
      if (!state().models.list.some((m) => m.id === modelId)) return notFound('model');
      if (state().models.current !== modelId)
        store.publish({ ...state(), models: { ...state().models, current: modelId } });
      return { modelId };
    },
    selectProject: ({ projectId }) => (projectId === state().projectId ? { projectId } : notFound('project')),
    approve: () => notFound('approval'),
    workspace: refuse('This app reads no folders.'),
    continue: refuse('This app has nothing to continue.'),
    branch: refuse('This app keeps one thread per conversation, without branches.'),
    editMessage: refuse('This app keeps one thread per conversation: a sent message stays as it is.'),
    regenerate: refuse('This app keeps one thread per conversation: a reply is not made again.'),
    pushStatus: refuse('This app sends no push notifications.'),
    subscribePush: refuse('This app sends no push notifications.'),
    unsubscribePush: refuse('This app sends no push notifications.'),
    reportPresence: ({ visible }) => ({ visible }),
    agentMode: refuse('This app runs no agents with modes.'),
    agentOption: refuse('This app runs no agents with settings.'),
    agentSessions: refuse('This app runs no agents.'),
    openAgentSession: refuse('This app runs no agents.'),
  };
}
