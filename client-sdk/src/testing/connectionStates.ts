/** Test fixtures of the connection's decision: states, items, and the table runner. Not exported from the package. */
import { expect, it } from 'vitest';
import {
  type ConnectionEffect,
  type ConnectionEvent,
  type ConnectionFacts,
  type ConnectionState,
  initialConnection,
} from '../events/ConnectionState';
import { deadAfterMs, staleAfterMs } from '../events/liveness';
import { nextConnection } from '../events/nextConnection';
import type { StreamItem } from '../events/readEventStream';
import { message, snapshot, snapshotEvent } from './fixtures';

const HEARTBEAT = 3_000;
const STALE = staleAfterMs(HEARTBEAT); // 4500
export const NOW = 100_000;

export const beat: StreamItem = { type: 'heartbeat', event: { t: 1, heartbeatMs: HEARTBEAT } };
export const named: StreamItem = {
  type: 'state',
  event: { ...snapshotEvent(5, snapshot([message('a')])), heartbeatMs: 45_000 },
};
export const delta: StreamItem = { type: 'state', event: { kind: 'delta', seq: 6, base: 5 } };

export const fresh = initialConnection({ healthyAfterMs: 10_000, offlineAfterFailures: 3 }, HEARTBEAT);
/** Stream 0 opened at NOW - 1000, not spoken yet. */
export const opening: ConnectionState = {
  ...fresh,
  status: 'connecting',
  candidate: { stream: 0, startedAt: NOW - 1_000 },
  nextStream: 1,
};
/** Stream 0 is live since NOW - 5000, last heard 1 s ago. */
export const live: ConnectionState = {
  ...fresh,
  status: 'live',
  active: { stream: 0, openedAt: NOW - 5_000, held: [] },
  lastHeard: NOW - 1_000,
  nextStream: 1,
};
/** Stream 0 is live; stream 1, a check, opened 200 ms ago; 0 said `delta` meanwhile. */
export const checking: ConnectionState = {
  ...live,
  active: { stream: 0, openedAt: NOW - 5_000, held: [delta] },
  candidate: { stream: 1, startedAt: NOW - 200 },
  nextStream: 2,
};
/** Nothing open: a retry is scheduled after two failures. */
export const backingOff: ConnectionState = {
  ...fresh,
  status: 'reconnecting',
  retrying: true,
  attempt: 2,
  failures: 2,
  lastHeard: NOW - 30_000,
  nextStream: 3,
};

export interface Row {
  readonly name: string;
  readonly given: ConnectionState;
  readonly event: ConnectionEvent;
  readonly facts?: Partial<ConnectionFacts>;
  readonly after: Partial<ConnectionState>;
  readonly effects: readonly ConnectionEffect[];
}

export const open = (stream: number): ConnectionEffect[] => [
  { kind: 'open', stream },
  { kind: 'timer', stream, timer: 'dead', ms: STALE },
];
export const heard = (stream: number, heartbeatMs = HEARTBEAT): ConnectionEffect[] => [
  { kind: 'timer', stream, timer: 'dead', ms: deadAfterMs(heartbeatMs) },
  { kind: 'timer', stream, timer: 'stale', ms: staleAfterMs(heartbeatMs) },
];

/** A deep freeze: the decision must never modify what it is given. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

/** One test per row: the step from `given` on `event` has exactly `effects`, and `after`. */
export function eachRow(rows: readonly Row[]): void {
  it.each(rows)('$name', ({ given, event, facts, after, effects }) => {
    const step = nextConnection(frozen(given), event, { now: NOW, online: true, synced: false, ...facts });
    expect(step.effects).toEqual(effects);
    expect(step.state).toMatchObject(after);
  });
}

/**
 * Which table covers each kind of event: the type demands every kind, and each table checks
 * that its rows have all of its own.
 */
const TABLE_OF: Record<ConnectionEvent['kind'], 'life' | 'stops'> = {
  start: 'life',
  item: 'life',
  applied: 'life',
  timer: 'life',
  check: 'life',
  settled: 'stops',
  retry: 'stops',
  offline: 'stops',
  close: 'stops',
};

/** The kinds of event `rows` has, and those its table must have. */
export function kindsOf(rows: readonly Row[], table: 'life' | 'stops') {
  const must = Object.entries(TABLE_OF)
    .filter(([, t]) => t === table)
    .map(([kind]) => kind);
  return { has: [...new Set(rows.map((row) => row.event.kind))].sort(), must: must.sort() };
}
