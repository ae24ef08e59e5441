import type { CompletedUpload, HostActionHandlers, HostAdapter, MediaFile } from '@webbridge/server';
import type { ChatController } from '../controller/ChatController';
import { hostLocale } from './hostLocale';

/**
 * The reference host behind the bridge: every `HostAdapter` member delegates to the
 * controller, and `runOnMain` is the controller's main executor.
 *
 * @example
 * ```ts
 * const controller = openChatController({ dataDir });
 * const bridge = createBridge({ host: createHostAdapter(controller), accessCode, uploadDir });
 * ```
 */
export function createHostAdapter(controller: ChatController): HostAdapter {
  const actions: HostActionHandlers = {
    send: (a) => controller.send(a.text, a.attachmentIds),
    stop: () => controller.stop(),
    continue: () => controller.continue(),
    workspace: (a) => controller.setWorkspace(a.uri),
    model: (a) => controller.setModel(a.modelId),
    branch: (a) => controller.branch(a.messageId, a.index),
    editMessage: (a) => controller.editMessage(a.messageId, a.text),
    regenerate: (a) => controller.regenerate(a.messageId),
    newConversation: (a) => controller.newConversation(a.projectId, a.title),
    selectConversation: (a) => controller.selectConversation(a.conversationId),
    renameConversation: (a) => controller.renameConversation(a.conversationId, a.title),
    deleteConversation: (a) => controller.deleteConversation(a.conversationId),
    selectProject: (a) => controller.selectProject(a.projectId),
    approve: (a) => controller.approve(a.approvalId, a.decision),
    updateSettings: (a) => controller.updateSettings(a.settings),
    removeAttachment: (a) => controller.removeAttachment(a.attachmentId),
  };
  return {
    readState: () => controller.readState(),
    subscribe: (listener) => controller.subscribe(listener),
    runOnMain: (task) => controller.executor.run(task),
    actions,
    addAttachment: (upload: CompletedUpload) => controller.addAttachment(upload, upload.conversationId),
    resolveMedia: (attachmentId: string): MediaFile | undefined => controller.attachmentFile(attachmentId),
    authoriseWorkspace: (uri) => controller.authoriser.authorise(uri),
    locale: hostLocale,
  };
}
