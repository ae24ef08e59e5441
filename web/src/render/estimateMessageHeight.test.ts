import { aMessage } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import type { Message } from '../state/types';
import { estimateMessageHeight } from './estimateMessageHeight';

const message = (role: Message['role'], text: string): Message =>
  aMessage({ id: `${role}-${text.length}`, role, text, createdAt: 0 });

describe('estimateMessageHeight', () => {
  // Heights measured in Chromium at 390 px wide (tests/browser's seeded conversation).
  it('comes within a line of what the phone drew for short and wrapped messages', () => {
    expect(Math.abs(estimateMessageHeight(message('user', 'ok (300)'), 390) - 131)).toBeLessThanOrEqual(24);
    expect(Math.abs(estimateMessageHeight(message('user', 'x'.repeat(88)), 390) - 179)).toBeLessThanOrEqual(
      24,
    );
  });

  it('grows with the lines of the text and with the width it lacks', () => {
    const long = message('assistant', 'word '.repeat(400));
    expect(estimateMessageHeight(long, 390)).toBeGreaterThan(
      estimateMessageHeight(message('assistant', 'hi'), 390),
    );
    expect(estimateMessageHeight({ ...long }, 390)).toBeGreaterThan(estimateMessageHeight({ ...long }, 1280));
    const lines = message('assistant', 'a\nb\nc\nd');
    expect(estimateMessageHeight(lines, 1280)).toBe(
      estimateMessageHeight(message('assistant', 'a'), 1280) + 3 * 24,
    );
  });
});
