import { aMessage } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import type { AgentToolCall } from '../state/agentMessageTypes';
import type { Message } from '../state/types';
import { turnChanges } from './turnChanges';

let n = 0;
const message = (role: Message['role'], agentTool?: AgentToolCall): Message =>
  aMessage({ id: `m${n++}`, role, text: '', createdAt: 0, ...(agentTool ? { agentTool } : {}) });
const editOf = (
  path: string,
  oldText: string | null,
  newText: string,
  status: AgentToolCall['status'] = 'completed',
) =>
  message('tool', {
    id: `e${n}`,
    title: 'Edit',
    kind: 'edit',
    status,
    locations: [],
    content: [{ type: 'diff', path, oldText, newText }],
  });

describe('turnChanges', () => {
  it('lists each file the turn changed once, first old text to last new text, failed edits left out', () => {
    const earlier = editOf('/p/old-turn.ts', 'x', 'y');
    const messages = [
      earlier,
      message('user'),
      editOf('/p/a.ts', 'one', 'two'),
      editOf('/p/b.ts', null, 'new'),
      editOf('/p/a.ts', 'two', 'three'),
      editOf('/p/c.ts', 'c', 'd', 'failed'),
      message('assistant'),
    ];
    expect(turnChanges(messages, messages.at(-1)?.id ?? '')).toEqual([
      { path: '/p/a.ts', oldText: 'one', newText: 'three' },
      { path: '/p/b.ts', oldText: null, newText: 'new' },
    ]);
  });
});
