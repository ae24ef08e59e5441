import { assertNever } from '../assertNever';
import type { ConnectionStatus } from '../store';
import {
  CHECK_DEBOUNCE_MS,
  type ConnectionEffect,
  type ConnectionEvent,
  type ConnectionFacts,
  type ConnectionState,
  type StreamOutcome,
} from './ConnectionState';
import { deadAfterMs, staleAfterMs } from './liveness';
import type { StreamItem } from './readEventStream';

/**
 * One step of {@link nextConnection} being worked out: a copy of the state replaced (never
 * mutated) by each decision, and the effects in the order they are decided. Local to one call,
 * so the step as a whole stays pure.
 */
export class StepBuilder {
  readonly effects: ConnectionEffect[] = [];

  constructor(
    public state: ConnectionState,
    private readonly facts: ConnectionFacts,
  ) {}

  set(patch: Partial<ConnectionState>): void {
    this.state = { ...this.state, ...patch };
  }

  effect(effect: ConnectionEffect): void {
    this.effects.push(effect);
  }

  status(status: ConnectionStatus, lastCurrentAt?: number): void {
    this.set({ status });
    this.effect(
      lastCurrentAt === undefined ? { kind: 'status', status } : { kind: 'status', status, lastCurrentAt },
    );
  }

  /** The status of a connection that is not live now. */
  notLive(): void {
    const { failures, lastHeard, config } = this.state;
    const status =
      !this.facts.online || failures >= config.offlineAfterFailures
        ? 'offline'
        : lastHeard === undefined && !this.facts.synced
          ? 'connecting'
          : 'reconnecting';
    this.status(status, lastHeard);
  }

  /** Opens a fresh stream as the candidate (there is none). */
  open(): void {
    if (this.state.retrying) this.effect({ kind: 'unschedule' });
    const stream = this.state.nextStream;
    this.set({ retrying: false, nextStream: stream + 1, candidate: { stream, startedAt: this.facts.now } });
    this.effect({ kind: 'open', stream });
    // A fresh stream speaks at once (a snapshot, or a heartbeat when resumed): one that stays
    // silent longer than a live stream may is given up sooner than a live one.
    this.effect({ kind: 'timer', stream, timer: 'dead', ms: staleAfterMs(this.state.heartbeatMs) });
  }

  drop(stream: number | undefined): void {
    if (stream !== undefined) this.effect({ kind: 'drop', stream });
  }

  /** Checks the stream with a fresh one; `silentKnown`: the status already says not live. */
  check(silentKnown = false): void {
    const { candidate, lastHeard, heartbeatMs } = this.state;
    const { now } = this.facts;
    if (candidate !== undefined) {
      // Wake events come in bursts (visibilitychange, focus, pageshow…): they share one check.
      // A later one replaces a fresh stream still silent: it may sit on a socket of the network
      // that just went away.
      if (now - candidate.startedAt < CHECK_DEBOUNCE_MS) return;
      this.drop(candidate.stream);
      this.set({ candidate: undefined });
    }
    // Timers of a frozen page fire late: a stream that has been silent too long is not live,
    // whatever the timer says, until the fresh one speaks.
    if (!silentKnown && lastHeard !== undefined && now - lastHeard > staleAfterMs(heartbeatMs))
      this.notLive();
    this.open();
  }

  /** A stream said something. */
  item(stream: number, item: StreamItem): void {
    let { active } = this.state;
    const { candidate } = this.state;
    if (stream === candidate?.stream) {
      // The fresh stream speaks: it replaces the old one, whose held items it covers.
      this.drop(active?.stream);
      active = { stream, openedAt: this.facts.now, held: [] };
      this.set({ active, candidate: undefined, failures: 0 });
    } else if (stream !== active?.stream) {
      // Neither the active stream nor a fresh one: stop reading it.
      this.drop(stream);
    } else if (candidate !== undefined) {
      this.set({ active: { ...active, held: [...active.held, item] } });
    }
    if (stream === this.state.active?.stream && this.state.candidate === undefined) {
      this.effect({ kind: 'apply', stream, items: [item] });
    }
  }

  /** The store took some items of a stream (see the `applied` event). */
  applied(event: Extract<ConnectionEvent, { kind: 'applied' }>): void {
    const { stream, taken, refused, synced } = event;
    if (taken.length > 0 && stream === this.state.active?.stream) {
      // The active stream spoke: the state is current.
      let { heartbeatMs } = this.state;
      for (const item of taken) heartbeatMs = intervalNamedBy(item) ?? heartbeatMs;
      this.set({ heartbeatMs, lastHeard: this.facts.now });
      this.effect({ kind: 'timer', stream, timer: 'dead', ms: deadAfterMs(heartbeatMs) });
      this.effect({ kind: 'timer', stream, timer: 'stale', ms: staleAfterMs(heartbeatMs) });
      if (synced) this.status('live');
    }
    // A refusal drops the stream; the next one starts over without a cursor.
    if (refused) this.drop(stream);
    if (this.state.replaying) {
      this.set({ replaying: false });
      this.backOffUnlessLive();
    }
  }

  /** A stream's request is over. */
  settled(stream: number, outcome: StreamOutcome): void {
    const { active, candidate, lastHeard } = this.state;
    switch (outcome) {
      case 'unauthorized':
        this.stop();
        this.status('unauthorized', lastHeard);
        return;
      case 'reload':
        this.stop();
        this.effect({ kind: 'reload' });
        this.status('offline', lastHeard);
        return;
      case 'failed':
      case 'ended':
        break;
      default:
        assertNever(outcome, 'stream outcome');
    }
    if (stream === candidate?.stream) {
      // It never spoke: the old stream, if any, goes on, with what it said meanwhile.
      this.set({ candidate: undefined, failures: this.state.failures + (outcome === 'failed' ? 1 : 0) });
      if (active !== undefined && active.held.length > 0) {
        this.set({ active: { ...active, held: [] }, replaying: true });
        this.effect({ kind: 'apply', stream: active.stream, items: active.held });
      } else this.backOffUnlessLive();
      return;
    }
    if (stream !== active?.stream) return;
    const healthy = this.facts.now - active.openedAt >= this.state.config.healthyAfterMs;
    this.set({ active: undefined, attempt: healthy ? 0 : this.state.attempt });
    this.notLive();
    if (this.state.candidate === undefined) this.schedule();
  }

  /** Closes everything for good. */
  stop(): void {
    const { active, candidate, retrying } = this.state;
    if (retrying) this.effect({ kind: 'unschedule' });
    this.drop(active?.stream);
    this.drop(candidate?.stream);
    this.set({ stopped: true, active: undefined, candidate: undefined, retrying: false, replaying: false });
    this.effect({ kind: 'stopped' });
  }

  /** After a fresh stream failed: back off, unless the old stream still speaks. */
  private backOffUnlessLive(): void {
    // The old stream is alive, and its own silence will trigger the next check.
    if (this.state.active !== undefined && this.state.status === 'live') return;
    this.notLive();
    this.schedule();
  }

  private schedule(): void {
    const { attempt } = this.state;
    this.effect({ kind: 'schedule', attempt });
    this.set({ retrying: true, attempt: attempt + 1 });
  }
}

/** The heartbeat interval an item names, if any. */
function intervalNamedBy(item: StreamItem): number | undefined {
  switch (item.type) {
    case 'state':
      return item.event.kind === 'snapshot' ? item.event.heartbeatMs : undefined;
    case 'heartbeat':
      return item.event.heartbeatMs;
    case 'retry':
      // The server's hint is not used: the client's own backoff already spreads retries.
      return undefined;
    default:
      return assertNever(item, 'stream item');
  }
}
