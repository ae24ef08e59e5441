import { describe, expect, it } from 'vitest';
import {
  beat,
  checking,
  delta,
  eachRow,
  fresh,
  heard,
  kindsOf,
  live,
  NOW,
  named,
  open,
  opening,
  type Row,
} from '../testing/connectionStates';

/** Connect, live, stale, wake check, replace (back off, resume, stop: nextConnection.stops.test.ts). */
const lifeRows: Row[] = [
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
];

describe('nextConnection: (state, event) → (state, effects), from connecting to a replaced stream', () => {
  eachRow(lifeRows);

  it('has every kind of event of its table', () => {
    const { has, must } = kindsOf(lifeRows, 'life');
    expect(has).toEqual(expect.arrayContaining(must));
  });
});
