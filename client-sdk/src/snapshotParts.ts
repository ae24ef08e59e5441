import { CONFIGURATION_PARTS, DELTA_PARTS, type Snapshot, type StatePart } from '@webbridge/contract';

// The parts of the state as the contract splits them (`STATE_PARTS`), read from there rather
// than listed again: a group added to the contract reaches the reducer and `shareUnchanged`
// without a change in the SDK (newStatePart.test.ts adds one).

/** The delta part that travels as `cut`/`put`/`set`/`ap`/`add` rather than whole. */
export const MESSAGES_PART: StatePart = messagesPart();

/**
 * The other delta parts, each replaced whole by the delta field of its name (the last key of
 * its path: `approvals`, `run`, `pending`), in the projection's order.
 */
export const REPLACED_PARTS: readonly { readonly field: string; readonly part: StatePart }[] =
  DELTA_PARTS.filter((part) => part !== MESSAGES_PART).map((part) => ({ field: fieldOf(part), part }));

/** Every part of the state, configuration and delta alike. */
export const ALL_PARTS: readonly StatePart[] = [...CONFIGURATION_PARTS, ...DELTA_PARTS];

/** A new value for one part of a snapshot. */
export interface PartChange {
  readonly path: StatePart['path'];
  readonly value: unknown;
}

/**
 * `snapshot` with `changes` written in, pure: the root and each group a change lands in are
 * copied once, everything else keeps its identity. No change: `snapshot` itself.
 */
export function withChanges(snapshot: Snapshot, changes: readonly PartChange[]): Snapshot {
  if (changes.length === 0) return snapshot;
  const before = snapshot as unknown as Record<string, unknown>;
  const after: Record<string, unknown> = { ...before };
  for (const { path, value } of changes) {
    const [key, inner] = path;
    if (inner === undefined) {
      after[key] = value;
      continue;
    }
    let group = after[key] as Record<string, unknown>;
    if (group === before[key]) {
      group = { ...group };
      after[key] = group;
    }
    group[inner] = value;
  }
  return after as unknown as Snapshot;
}

function fieldOf(part: StatePart): string {
  return part.path[part.path.length - 1] as string;
}

function messagesPart(): StatePart {
  const part = DELTA_PARTS.find((candidate) => fieldOf(candidate) === 'messages');
  // The contract's own test holds this; an SDK built against a contract without it cannot work.
  if (part === undefined) throw new Error('the contract has no messages part');
  return part;
}
