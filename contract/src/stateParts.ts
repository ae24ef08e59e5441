import type { Projection } from './snapshot';

/**
 * How a part of the state reaches a client. `configuration`: it is hashed into the snapshot
 * event's `signature`, and a change sends a full snapshot. `delta`: it changes too often for
 * that (messages as they stream, the run, approvals, pending uploads) and travels in deltas,
 * each in the delta field of its own name (`messages` as `cut`/`put`/`set`/`ap`/`add`).
 */
export type StateSide = 'configuration' | 'delta';

/** A side for every key of `T`: for a group, one side, or one per key of the group. */
type PartsOf<T> = {
  readonly [K in keyof T]-?: StateSide | { readonly [J in keyof T[K]]-?: StateSide };
};

/**
 * The split of the projection (and so of the snapshot) into configuration and delta, one entry
 * per top-level field of the projection schema. The type demands an entry for every field: a
 * group added to the schema does not compile until it is put on one side here, and the
 * server's signature and diff are derived from this (so its changes always reach a client).
 */
export const STATE_PARTS = {
  instanceId: 'configuration',
  sessionRevision: 'configuration',
  conversationId: 'configuration',
  projectId: 'configuration',
  conversations: { list: 'configuration', messages: 'delta', pending: 'delta', run: 'delta' },
  projects: 'configuration',
  models: 'configuration',
  tools: 'configuration',
  approvals: 'delta',
  settings: 'configuration',
  agents: 'configuration',
} as const satisfies PartsOf<Projection>;

/** One part of the state: its path in the projection, and how to read it cheaply. */
export interface StatePart {
  /** The keys from the projection's root, e.g. `['conversations', 'run']`. */
  readonly path: readonly [string] | readonly [string, string];
  /** The part's value in a projection (a snapshot has the same shape). */
  readonly read: (state: Projection) => unknown;
}

function partsOn(side: StateSide): StatePart[] {
  const parts: StatePart[] = [];
  for (const [key, entry] of Object.entries(STATE_PARTS)) {
    const group = key as keyof Projection;
    if (entry === side) parts.push({ path: [key], read: (state) => state[group] });
    if (typeof entry !== 'object') continue;
    for (const [inner, innerSide] of Object.entries(entry)) {
      if (innerSide !== side) continue;
      parts.push({
        path: [key, inner],
        read: (state) => (state[group] as unknown as Record<string, unknown>)[inner],
      });
    }
  }
  return parts;
}

/** The parts hashed into the configuration signature, in the projection's order. */
export const CONFIGURATION_PARTS: readonly StatePart[] = partsOn('configuration');

/** The parts that travel in deltas, in the projection's order. */
export const DELTA_PARTS: readonly StatePart[] = partsOn('delta');
