import type { ConversationSummary } from '../snapshot';

/**
 * An entry of the conversation list, for a test: `c1` "First" in project `p1`, with `overrides`
 * on top.
 *
 * @example aConversationSummary({ id: 'c2', title: 'Second' })
 */
export function aConversationSummary(overrides: Partial<ConversationSummary> = {}): ConversationSummary {
  return { id: 'c1', title: 'First', projectId: 'p1', createdAt: 1, ...overrides };
}
