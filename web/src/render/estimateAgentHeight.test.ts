import { aMessage } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import type { Message } from '../state/types';
import { estimateAgentHeight } from './estimateAgentHeight';

const base: Message = aMessage({ id: 'm', role: 'assistant', text: '', createdAt: 0 });

describe('estimateAgentHeight', () => {
  it('leaves other messages to the text estimate', () => {
    expect(estimateAgentHeight({ ...base, text: 'hello' }, 60)).toBeUndefined();
  });

  it('gives thinking one line however long it is (it is drawn closed)', () => {
    const short = estimateAgentHeight({ ...base, thought: true, text: 'hm' }, 60);
    expect(estimateAgentHeight({ ...base, thought: true, text: 'word '.repeat(2000) }, 60)).toBe(short);
  });

  // Measured in Chromium at 390 px (tests/browser/agentMessages.test.ts): a finished 80-line
  // terminal card drew 362 px, its frame included.
  it('caps a terminal card at its block’s height, close to what the phone drew', () => {
    const terminal = (text: string): Message => ({
      ...base,
      role: 'tool',
      text,
      agentTool: {
        id: 't',
        title: 'seq 1 80',
        kind: 'execute',
        status: 'completed',
        locations: [],
        content: [{ type: 'terminal', terminalId: 't1' }],
      },
    });
    const eighty = Array.from({ length: 80 }, (_, i) => String(i + 1)).join('\n');
    const height = estimateAgentHeight(terminal(eighty), 60) ?? 0;
    expect(Math.abs(height - 362)).toBeLessThanOrEqual(24);
    expect(estimateAgentHeight(terminal(`${eighty}\n${eighty}`), 60)).toBe(height);
    expect(estimateAgentHeight(terminal('1\n2'), 60)).toBeLessThan(height);
  });
});
