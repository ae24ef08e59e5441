import { PROTOCOL_VERSION } from '../limits';
import type { Snapshot } from '../snapshot';
import { aProjection, type StateOverrides } from './aProjection';

/**
 * The full state as the browser receives it, for a test: {@link aProjection}'s defaults (no
 * message or pending attachment, so nothing differs between the host's and the wire's view)
 * with the protocol number, and `overrides` on top.
 *
 * @example aSnapshot({ conversations: { messages: [aMessage()] } })
 */
export function aSnapshot(overrides: StateOverrides<Snapshot> = {}): Snapshot {
  const { conversations, ...rest } = overrides;
  const { conversations: base, ...projection } = aProjection();
  return {
    protocol: PROTOCOL_VERSION,
    ...projection,
    conversations: { ...base, messages: [], pending: [], ...conversations },
    ...rest,
  };
}
