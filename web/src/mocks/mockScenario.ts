import { PROTOCOL_VERSION, type Snapshot, snapshotSchema } from '@webbridge/contract';

const now = Date.now();

/**
 * Scenario data: the state the mocks start from (two conversations, one with a markdown reply,
 * a pending-free composer, the echo model and two tools), and the fixture of the component
 * tests. Checked against the contract's schema, so a contract change that it misses fails at
 * start-up instead of drifting. The mock bridge (createMockBridge.ts) seeds its host with it.
 */
export function mockScenario(): Snapshot {
  return snapshotSchema.parse({
    protocol: PROTOCOL_VERSION,
    instanceId: 'mock-instance',
    sessionRevision: 1,
    conversationId: 'c-welcome',
    projectId: 'p-default',
    conversations: {
      list: [
        { id: 'c-welcome', title: 'Welcome to webbridge', projectId: 'p-default', createdAt: now - 60_000 },
        { id: 'c-trip', title: 'Trip notes', projectId: 'p-default', createdAt: now - 3_600_000 },
      ],
      messages: [
        {
          id: 'm1',
          parentId: null,
          role: 'user',
          text: 'What can you show me?',
          status: 'complete',
          createdAt: now - 50_000,
          attachments: [],
          sibling: { index: 0, count: 1 },
        },
        {
          id: 'm2',
          parentId: 'm1',
          role: 'assistant',
          text: [
            'These are **mock** replies. Try:',
            '',
            '- any text: it is *echoed back* word by word,',
            '- `/approve`: the model asks to write a file, and waits for your answer,',
            '- `/switch` then a message: the host moves elsewhere and your send gets a 409,',
            '- edit a message of yours, or regenerate a reply: each makes a branch you can switch between.',
            '',
            // One line: the renderer keeps a line break as a break.
            'The bridge is the real one, running in this page over a scripted in-memory host.',
            '',
            '```ts',
            "const hello = 'world';",
            '```',
            '',
            'More at [the docs](https://example.com/docs).',
          ].join('\n'),
          status: 'complete',
          createdAt: now - 49_000,
          attachments: [],
          sibling: { index: 0, count: 1 },
          model: 'echo',
        },
      ],
      pending: [],
      run: { state: 'idle', messageId: null },
    },
    projects: {
      list: [
        {
          id: 'p-default',
          name: 'Default',
          workspace: { uri: 'file:///home/me/work', name: 'work' },
          createdAt: now - 86_400_000,
        },
      ],
      roots: [{ uri: 'file:///home/me/work', name: 'work' }],
    },
    models: { current: 'echo', list: [{ id: 'echo', name: 'Echo (offline)', provider: 'echo' }] },
    tools: {
      list: [
        {
          name: 'read_file',
          description: 'Read a file in the workspace',
          needsApproval: false,
          enabled: true,
        },
        {
          name: 'write_file',
          description: 'Write a file in the workspace',
          needsApproval: true,
          enabled: true,
        },
      ],
    },
    approvals: [],
    settings: { theme: 'system', autoApprove: [], allowCommands: false, systemPrompt: '' },
  });
}
