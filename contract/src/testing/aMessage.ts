import type { HostMessage, Message } from '../snapshot';

/**
 * A message as the browser sees it, for a test: a complete user message `m1` with no parent,
 * attachment or sibling, with `overrides` on top.
 *
 * @example aMessage({ id: 'r', role: 'assistant', status: 'streaming' })
 */
export function aMessage(overrides: Partial<Message> = {}): Message {
  return { ...messageDefaults(), ...overrides };
}

/** A message as the host projects it, for a test (the defaults of {@link aMessage}). */
export function aHostMessage(overrides: Partial<HostMessage> = {}): HostMessage {
  return { ...messageDefaults(), ...overrides };
}

/** What the two views of a message share when it has no attachment. */
function messageDefaults(): Message & HostMessage {
  return {
    id: 'm1',
    parentId: null,
    role: 'user',
    text: 'text of m1',
    status: 'complete',
    createdAt: 1,
    attachments: [],
    sibling: { index: 0, count: 1 },
  };
}
