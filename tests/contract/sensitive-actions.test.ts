import { ACTION_NAMES, SENSITIVE_ACTIONS } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';

describe('session-sensitive actions', () => {
  it('are derived from the schemas and include the seven of DESIGN.md', () => {
    for (const name of ['send', 'stop', 'continue', 'workspace', 'model', 'branch', 'editMessage'] as const) {
      expect(SENSITIVE_ACTIONS.has(name)).toBe(true);
    }
    expect(SENSITIVE_ACTIONS.has('selectConversation')).toBe(false);
    expect(ACTION_NAMES.length).toBeGreaterThan(SENSITIVE_ACTIONS.size);
  });
});
