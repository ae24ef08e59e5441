import { describe, expect, it } from 'vitest';
import {
  backingOff,
  checking,
  eachRow,
  kindsOf,
  live,
  NOW,
  open,
  opening,
  type Row,
} from '../testing/connectionStates';

/** Back off, resume, stop. */
const stopRows: Row[] = [
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

describe('nextConnection: (state, event) → (state, effects), from a lost stream to the end', () => {
  eachRow(stopRows);

  it('has every kind of event of its table', () => {
    const { has, must } = kindsOf(stopRows, 'stops');
    expect(has).toEqual(expect.arrayContaining(must));
  });
});
