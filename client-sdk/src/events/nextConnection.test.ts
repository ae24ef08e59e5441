import { describe, expect, it } from 'vitest';
import { message, snapshot, snapshotEvent } from '../testing/fixtures';
import {
  type ConnectionEffect,
  type ConnectionEvent,
  type ConnectionFacts,
  type ConnectionState,
  initialConnection,
} from './ConnectionState';
import { deadAfterMs, staleAfterMs } from './liveness';
import { nextConnection } from './nextConnection';
import type { StreamItem } from './readEventStream';

const HEARTBEAT = 3_000;
const STALE = staleAfterMs(HEARTBEAT); // 4500
const NOW = 100_000;

const beat: StreamItem = { type: 'heartbeat', event: { t: 1, heartbeatMs: HEARTBEAT } };
const named: StreamItem = {
  type: 'state',
  event: { ...snapshotEvent(5, snapshot([message('a')])), heartbeatMs: 45_000 },
};
const delta: StreamItem = { type: 'state', event: { kind: 'delta', seq: 6, base: 5 } };

const fresh = initialConnection({ healthyAfterMs: 10_000, offlineAfterFailures: 3 }, HEARTBEAT);
/** Stream 0 opened at NOW - 1000, not spoken yet. */
const opening: ConnectionState = {
  ...fresh,
  status: 'connecting',
  candidate: { stream: 0, startedAt: NOW - 1_000 },
  nextStream: 1,
};
/** Stream 0 is live since NOW - 5000, last heard 1 s ago. */
const live: ConnectionState = {
  ...fresh,
  status: 'live',
  active: { stream: 0, openedAt: NOW - 5_000, held: [] },
  lastHeard: NOW - 1_000,
  nextStream: 1,
};
/** Stream 0 is live; stream 1, a check, opened 200 ms ago; 0 said `delta` meanwhile. */
const checking: ConnectionState = {
  ...live,
  active: { stream: 0, openedAt: NOW - 5_000, held: [delta] },
  candidate: { stream: 1, startedAt: NOW - 200 },
  nextStream: 2,
};
/** Nothing open: a retry is scheduled after two failures. */
const backingOff: ConnectionState = {
  ...fresh,
  status: 'reconnecting',
  retrying: true,
  attempt: 2,
  failures: 2,
  lastHeard: NOW - 30_000,
  nextStream: 3,
};

interface Row {
  readonly name: string;
  readonly given: ConnectionState;
  readonly event: ConnectionEvent;
  readonly facts?: Partial<ConnectionFacts>;
  readonly after: Partial<ConnectionState>;
  readonly effects: readonly ConnectionEffect[];
}

const open = (stream: number): ConnectionEffect[] => [
  { kind: 'open', stream },
  { kind: 'timer', stream, timer: 'dead', ms: STALE },
];
const heard = (stream: number, heartbeatMs = HEARTBEAT): ConnectionEffect[] => [
  { kind: 'timer', stream, timer: 'dead', ms: deadAfterMs(heartbeatMs) },
  { kind: 'timer', stream, timer: 'stale', ms: staleAfterMs(heartbeatMs) },
];

const rows: Row[] = [
  // connect
  {
    name: 'start without a state: connecting, one stream',
    given: fresh,
    event: { kind: 'start' },
    after: { status: 'connecting', candidate: { stream: 0, startedAt: NOW }, nextStream: 1 },
    effects: [{ kind: 'status', status: 'connecting' }, ...open(0)],
  },
  {
    name: 'start with a state to resume from: reconnecting',
    given: fresh,
    event: { kind: 'start' },
    facts: { synced: true },
    after: { status: 'reconnecting' },
    effects: [{ kind: 'status', status: 'reconnecting' }, ...open(0)],
  },
  {
    name: 'the fresh stream speaks: it becomes the active one, its item goes to the store',
    given: { ...opening, failures: 2 },
    event: { kind: 'item', stream: 0, item: named },
    after: { active: { stream: 0, openedAt: NOW, held: [] }, candidate: undefined, failures: 0 },
    effects: [{ kind: 'apply', stream: 0, items: [named] }],
  },
  // live
  {
    name: 'the store took a snapshot: heard, live, and the interval it names is followed',
    given: { ...live, status: 'connecting', lastHeard: undefined },
    event: { kind: 'applied', stream: 0, taken: [named], refused: false, synced: true },
    after: { status: 'live', lastHeard: NOW, heartbeatMs: 45_000 },
    effects: [...heard(0, 45_000), { kind: 'status', status: 'live' }],
  },
  {
    name: 'a heartbeat before any state: heard, but not live',
    given: { ...live, status: 'connecting', lastHeard: undefined },
    event: { kind: 'applied', stream: 0, taken: [beat], refused: false, synced: false },
    after: { status: 'connecting', lastHeard: NOW },
    effects: heard(0),
  },
  {
    name: 'a refused delta drops the stream, unheard',
    given: live,
    event: { kind: 'applied', stream: 0, taken: [], refused: true, synced: false },
    after: { lastHeard: NOW - 1_000, active: live.active },
    effects: [{ kind: 'drop', stream: 0 }],
  },
  {
    name: 'a stream that is neither active nor fresh is not read further',
    given: live,
    event: { kind: 'item', stream: 7, item: beat },
    after: { active: live.active },
    effects: [{ kind: 'drop', stream: 7 }],
  },
  // stale, wake check
  {
    name: 'the active stream goes stale: not live, checked with a fresh stream',
    given: live,
    event: { kind: 'timer', stream: 0, timer: 'stale' },
    after: { status: 'reconnecting', candidate: { stream: 1, startedAt: NOW } },
    effects: [{ kind: 'status', status: 'reconnecting', lastCurrentAt: NOW - 1_000 }, ...open(1)],
  },
  {
    name: 'a stale timer of a stream already replaced does nothing',
    given: live,
    event: { kind: 'timer', stream: 5, timer: 'stale' },
    after: live,
    effects: [],
  },
  {
    name: 'a stream silent too long is torn down',
    given: live,
    event: { kind: 'timer', stream: 0, timer: 'dead' },
    after: live,
    effects: [{ kind: 'drop', stream: 0, dead: true }],
  },
  {
    name: 'a wake check opens a fresh stream beside the live one',
    given: live,
    event: { kind: 'check' },
    after: { status: 'live', active: live.active, candidate: { stream: 1, startedAt: NOW } },
    effects: open(1),
  },
  {
    name: 'a wake within a second of the last check shares it',
    given: checking,
    event: { kind: 'check' },
    after: checking,
    effects: [],
  },
  {
    name: 'a wake a second or more later replaces a fresh stream still silent',
    given: { ...checking, candidate: { stream: 1, startedAt: NOW - 1_000 } },
    event: { kind: 'check' },
    after: { candidate: { stream: 2, startedAt: NOW }, active: checking.active },
    effects: [{ kind: 'drop', stream: 1 }, ...open(2)],
  },
  {
    name: 'a page woken long after its last byte is not live until the fresh stream speaks',
    given: { ...live, lastHeard: NOW - 20_000 },
    event: { kind: 'check' },
    after: { status: 'reconnecting' },
    effects: [{ kind: 'status', status: 'reconnecting', lastCurrentAt: NOW - 20_000 }, ...open(1)],
  },
  // replace
  {
    name: 'while a check is open, what the old stream says is held back',
    given: checking,
    event: { kind: 'item', stream: 0, item: beat },
    after: { active: { stream: 0, openedAt: NOW - 5_000, held: [delta, beat] } },
    effects: [],
  },
  {
    name: 'the fresh stream speaks: the old one is dropped with what it held',
    given: checking,
    event: { kind: 'item', stream: 1, item: beat },
    after: { active: { stream: 1, openedAt: NOW, held: [] }, candidate: undefined },
    effects: [
      { kind: 'drop', stream: 0 },
      { kind: 'apply', stream: 1, items: [beat] },
    ],
  },
  {
    name: 'the fresh stream fails: the old one goes on with what it held',
    given: checking,
    event: { kind: 'settled', stream: 1, outcome: 'failed' },
    after: { candidate: undefined, failures: 1, replaying: true, active: { ...live.active!, held: [] } },
    effects: [{ kind: 'apply', stream: 0, items: [delta] }],
  },
  {
    name: 'the held items applied: the old stream is alive, no retry beside it',
    given: { ...checking, candidate: undefined, replaying: true, status: 'reconnecting' },
    event: { kind: 'applied', stream: 0, taken: [delta], refused: false, synced: true },
    after: { replaying: false, status: 'live', retrying: false },
    effects: [...heard(0), { kind: 'status', status: 'live' }],
  },
  {
    name: 'a held item refused while not live: the old stream is dropped and a retry scheduled',
    given: { ...checking, candidate: undefined, replaying: true, status: 'reconnecting' },
    event: { kind: 'applied', stream: 0, taken: [], refused: true, synced: false },
    after: { replaying: false, retrying: true, attempt: 1 },
    effects: [
      { kind: 'drop', stream: 0 },
      { kind: 'status', status: 'reconnecting', lastCurrentAt: NOW - 1_000 },
      { kind: 'schedule', attempt: 0 },
    ],
  },
  {
    name: 'the fresh stream ended, the old one still live and holding nothing: nothing more',
    given: { ...checking, active: live.active },
    event: { kind: 'settled', stream: 1, outcome: 'ended' },
    after: { candidate: undefined, failures: 0, retrying: false },
    effects: [],
  },
  // back off
  {
    name: 'the first stream fails: connecting still, retry after the first backoff',
    given: opening,
    event: { kind: 'settled', stream: 0, outcome: 'failed' },
    after: { candidate: undefined, failures: 1, attempt: 1, retrying: true },
    effects: [
      { kind: 'status', status: 'connecting' },
      { kind: 'schedule', attempt: 0 },
    ],
  },
  {
    name: 'the third failure in a row: offline, and it keeps retrying',
    given: { ...opening, failures: 2, attempt: 2 },
    event: { kind: 'settled', stream: 0, outcome: 'failed' },
    after: { failures: 3, attempt: 3, retrying: true },
    effects: [
      { kind: 'status', status: 'offline' },
      { kind: 'schedule', attempt: 2 },
    ],
  },
  {
    name: 'the active stream ends after a healthy while: the backoff starts over',
    given: { ...live, attempt: 4, active: { stream: 0, openedAt: NOW - 10_000, held: [] } },
    event: { kind: 'settled', stream: 0, outcome: 'ended' },
    facts: { synced: true },
    after: { active: undefined, attempt: 1, retrying: true },
    effects: [
      { kind: 'status', status: 'reconnecting', lastCurrentAt: NOW - 1_000 },
      { kind: 'schedule', attempt: 0 },
    ],
  },
  {
    name: 'a short-lived stream ends: the backoff grows',
    given: { ...live, attempt: 4, active: { stream: 0, openedAt: NOW - 9_999, held: [] } },
    event: { kind: 'settled', stream: 0, outcome: 'ended' },
    after: { attempt: 5 },
    effects: [
      { kind: 'status', status: 'reconnecting', lastCurrentAt: NOW - 1_000 },
      { kind: 'schedule', attempt: 4 },
    ],
  },
  {
    name: 'the active stream ends while a check is open: no retry beside the check',
    given: { ...checking, active: live.active },
    event: { kind: 'settled', stream: 0, outcome: 'ended' },
    after: { active: undefined, candidate: checking.candidate, retrying: false },
    effects: [{ kind: 'status', status: 'reconnecting', lastCurrentAt: NOW - 1_000 }],
  },
  {
    name: 'the browser says offline: offline',
    given: live,
    event: { kind: 'offline' },
    facts: { online: false },
    after: { status: 'offline' },
    effects: [{ kind: 'status', status: 'offline', lastCurrentAt: NOW - 1_000 }],
  },
  {
    name: 'an offline event the browser does not confirm changes nothing',
    given: live,
    event: { kind: 'offline' },
    after: live,
    effects: [],
  },
  // resume
  {
    name: 'the backoff is over: a fresh stream',
    given: backingOff,
    event: { kind: 'retry' },
    after: { retrying: false, candidate: { stream: 3, startedAt: NOW } },
    effects: open(3),
  },
  {
    name: 'a wake during the backoff opens at once, and the retry is forgotten',
    given: backingOff,
    event: { kind: 'check' },
    after: { retrying: false, candidate: { stream: 3, startedAt: NOW } },
    effects: [
      { kind: 'status', status: 'reconnecting', lastCurrentAt: NOW - 30_000 },
      { kind: 'unschedule' },
      ...open(3),
    ],
  },
  {
    name: 'a stream dropped earlier settles: nothing',
    given: live,
    event: { kind: 'settled', stream: 9, outcome: 'ended' },
    after: live,
    effects: [],
  },
  // stop
  {
    name: '401: everything stops, unauthorized',
    given: checking,
    event: { kind: 'settled', stream: 1, outcome: 'unauthorized' },
    after: { stopped: true, active: undefined, candidate: undefined, status: 'unauthorized' },
    effects: [
      { kind: 'drop', stream: 0 },
      { kind: 'drop', stream: 1 },
      { kind: 'stopped' },
      { kind: 'status', status: 'unauthorized', lastCurrentAt: NOW - 1_000 },
    ],
  },
  {
    name: 'another protocol: everything stops, the page must reload',
    given: opening,
    event: { kind: 'settled', stream: 0, outcome: 'reload' },
    after: { stopped: true },
    effects: [
      { kind: 'drop', stream: 0 },
      { kind: 'stopped' },
      { kind: 'reload' },
      { kind: 'status', status: 'offline' },
    ],
  },
  {
    name: 'close during a backoff: the retry is forgotten, offline',
    given: backingOff,
    event: { kind: 'close' },
    after: { stopped: true, retrying: false, status: 'offline' },
    effects: [
      { kind: 'unschedule' },
      { kind: 'stopped' },
      { kind: 'status', status: 'offline', lastCurrentAt: NOW - 30_000 },
    ],
  },
  {
    name: 'after stopping, nothing happens',
    given: { ...live, stopped: true },
    event: { kind: 'check' },
    after: { ...live, stopped: true },
    effects: [],
  },
];

/** A deep freeze: the decision must never modify what it is given. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

describe('nextConnection: (state, event) → (state, effects)', () => {
  it.each(rows)('$name', ({ given, event, facts, after, effects }) => {
    const step = nextConnection(frozen(given), event, { now: NOW, online: true, synced: false, ...facts });
    expect(step.effects).toEqual(effects);
    expect(step.state).toMatchObject(after);
  });

  it('covers every kind of event', () => {
    const kinds = new Set(rows.map((row) => row.event.kind));
    const all: ConnectionEvent['kind'][] = [
      'start',
      'item',
      'applied',
      'settled',
      'timer',
      'retry',
      'check',
      'offline',
      'close',
    ];
    expect([...kinds].sort()).toEqual([...all].sort());
  });
});
