import { ProtocolError } from '@webbridge/contract';
import type {
  ActionOrigin,
  CompletedUpload,
  HostActionHandlers,
  HostAdapter,
  MediaFile,
} from '@webbridge/server';
import { ACCESS_CODE_DECIDER, deviceDecider } from '../controller/approvalDecision';
import type { ChatController } from '../controller/ChatController';
import type { ApprovalDecider } from '../db/ApprovalTable';
import type { HostPush } from '../push/HostPush';
import { hostLocale } from './hostLocale';

/**
 * The reference host behind the bridge: each action of the protocol goes straight to the
 * controller's action group that does the work, and `runOnMain` is the controller's main
 * executor, answering once the task's writes are committed (answered ⇒ committed, though the
 * host commits the writes of one event-loop turn together).
 *
 * @example
 * ```ts
 * const controller = openChatController({ dataDir });
 * const bridge = createBridge({ host: createHostAdapter(controller), accessCode, uploadDir });
 * ```
 */
export function createHostAdapter(controller: ChatController, push?: HostPush): HostAdapter {
  const { messages, conversations, projects, approvals, settings, attachments, agents } = controller;
  const actions: HostActionHandlers = {
    send: (a) => messages.send(a.text, a.attachmentIds),
    stop: () => messages.stop(),
    continue: () => messages.continue(),
    workspace: (a) => projects.setWorkspace(a.uri),
    model: (a) => conversations.setModel(a.modelId),
    branch: (a) => messages.branch(a.messageId, a.index),
    editMessage: (a) => messages.editMessage(a.messageId, a.text),
    regenerate: (a) => messages.regenerate(a.messageId),
    newConversation: (a) => conversations.newConversation(a.projectId, a.title, a.agentId),
    selectConversation: (a) => conversations.selectConversation(a.conversationId),
    renameConversation: (a) => conversations.renameConversation(a.conversationId, a.title),
    deleteConversation: (a) => conversations.deleteConversation(a.conversationId),
    selectProject: (a) => projects.selectProject(a.projectId),
    approve: (a, origin) => approvals.approve(a.approvalId, a.decision, deciderOf(origin), a.optionId),
    updateSettings: (a) => settings.update(a.settings),
    removeAttachment: (a) => attachments.remove(a.attachmentId),
    pushStatus: (_a, origin) => pushOf(push).status(origin),
    subscribePush: (a, origin) => pushOf(push).subscribe(origin, a.subscription, a.choices),
    unsubscribePush: (_a, origin) => pushOf(push).unsubscribe(origin),
    reportPresence: (a, origin) => pushOf(push).reportPresence(origin, a.visible),
    agentMode: (a) => agents.setMode(a.modeId),
    agentOption: (a) => agents.setOption(a.optionId, a.value),
    agentSessions: (a) => agents.listSessions(a.agentId),
    openAgentSession: (a) => agents.openSession(a.agentId, a.sessionId, a.projectId),
  };
  return {
    readState: () => controller.readState(),
    subscribe: (listener) => controller.subscribe(listener),
    runOnMain: (task) => controller.runCommitted(task),
    actions,
    addAttachment: (upload: CompletedUpload) => attachments.add(upload, upload.conversationId),
    resolveMedia: (attachmentId: string): MediaFile | undefined => attachments.file(attachmentId),
    authoriseWorkspace: (uri) => controller.authoriser.authorise(uri),
    locale: hostLocale,
    ...(push === undefined
      ? {}
      : {
          checkAction: (action, origin) => push.checkAction(action, origin),
          decideWithToken: (token, decision) => push.decideWithToken(token, decision),
        }),
  };
}

/** The host's push, or 422 when this host was started without it. */
function pushOf(push: HostPush | undefined): HostPush {
  if (push === undefined) throw new ProtocolError('not_applicable', 'This host sends no push notifications.');
  return push;
}

/** Who answers an approval sent by `origin`: its paired device, else the access code itself. */
function deciderOf(origin: ActionOrigin | undefined): ApprovalDecider {
  return origin?.device ? deviceDecider(origin.device) : ACCESS_CODE_DECIDER;
}
