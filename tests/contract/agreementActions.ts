import type { ActionName, Snapshot } from '@webbridge/contract';

/**
 * A valid body of every action of the contract. The Record's type makes a new action fail to
 * compile until it has one here; the test then fails until the embedding's handlers (which the
 * mock host is made of) answer it.
 */
export const ACTIONS: Record<ActionName, (s: Snapshot) => Record<string, unknown> & { action: ActionName }> =
  {
    send: () => ({ action: 'send', text: 'hello' }),
    stop: () => ({ action: 'stop' }),
    continue: () => ({ action: 'continue' }),
    workspace: () => ({ action: 'workspace', uri: 'file:///etc' }),
    model: (s) => ({ action: 'model', modelId: s.models.current }),
    // A message the state shows, so a host with branches answers (the mocks' script does).
    branch: (s) => ({
      action: 'branch',
      messageId: s.conversations.messages[0]?.id ?? 'any-message',
      index: 0,
    }),
    editMessage: (s) => ({
      action: 'editMessage',
      messageId: s.conversations.messages.find((m) => m.role === 'user')?.id ?? 'any-message',
      text: 'x',
    }),
    regenerate: () => ({ action: 'regenerate' }),
    newConversation: () => ({ action: 'newConversation' }),
    selectConversation: (s) => ({ action: 'selectConversation', conversationId: s.conversationId }),
    renameConversation: (s) => ({
      action: 'renameConversation',
      conversationId: s.conversationId,
      title: 'T',
    }),
    deleteConversation: (s) => ({
      action: 'deleteConversation',
      conversationId: s.conversations.list.at(-1)!.id,
    }),
    selectProject: (s) => ({ action: 'selectProject', projectId: s.projectId }),
    approve: () => ({ action: 'approve', approvalId: 'no-such-approval', decision: 'allow' }),
    updateSettings: () => ({ action: 'updateSettings', settings: { theme: 'dark' } }),
    removeAttachment: () => ({ action: 'removeAttachment', attachmentId: 'no-such-attachment' }),
    refreshMedia: () => ({ action: 'refreshMedia', attachmentId: 'no-such-attachment' }),
    pushStatus: () => ({ action: 'pushStatus' }),
    subscribePush: () => ({
      action: 'subscribePush',
      subscription: {
        endpoint: 'https://93.184.216.34/send/abc',
        keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
      },
      choices: { approvals: true, replies: false },
    }),
    unsubscribePush: () => ({ action: 'unsubscribePush' }),
    reportPresence: () => ({ action: 'reportPresence', visible: true }),
    agentMode: () => ({ action: 'agentMode', modeId: 'code' }),
    agentOption: () => ({ action: 'agentOption', optionId: 'model', value: 'large' }),
    agentSessions: () => ({ action: 'agentSessions', agentId: 'opencode' }),
    openAgentSession: () => ({ action: 'openAgentSession', agentId: 'opencode', sessionId: 'desk-1' }),
  };
