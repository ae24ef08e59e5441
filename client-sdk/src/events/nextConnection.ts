import { assertNever } from '../assertNever';
import type { ConnectionEvent, ConnectionFacts, ConnectionState, ConnectionStep } from './ConnectionState';
import { StepBuilder } from './StepBuilder';

/**
 * The connection's decision, pure: the state after `event` and what to do about it, the
 * client's counterpart of the server's `nextSend`. The stream's life: it opens a stream and is
 * `live` while bytes arrive within the heartbeat interval plus a grace; then it is stale and
 * checked at once. A check (also on wake-up) opens a fresh stream beside the old one, holds back
 * what the old one says, and replaces it as soon as the fresh one speaks; if the fresh one fails
 * instead, the old one goes on with what it held. A lost stream is reopened after a backoff;
 * 401 and another protocol stop everything. {@link connectEvents} performs the effects.
 */
export function nextConnection(
  state: ConnectionState,
  event: ConnectionEvent,
  facts: ConnectionFacts,
): ConnectionStep {
  if (state.stopped) return { state, effects: [] };
  const step = new StepBuilder(state, facts);
  switch (event.kind) {
    case 'start':
      step.status(facts.synced ? 'reconnecting' : 'connecting');
      step.open();
      break;
    case 'item':
      step.item(event.stream, event.item);
      break;
    case 'applied':
      step.applied(event);
      break;
    case 'settled':
      step.settled(event.stream, event.outcome);
      break;
    case 'timer':
      if (event.timer === 'dead') step.effect({ kind: 'drop', stream: event.stream, dead: true });
      else if (event.stream === state.active?.stream) {
        step.notLive();
        step.check(true);
      }
      break;
    case 'retry':
      step.set({ retrying: false });
      if (step.state.candidate === undefined) step.open();
      break;
    case 'check':
      step.check();
      break;
    case 'offline':
      if (!facts.online) step.notLive();
      break;
    case 'close':
      step.stop();
      step.status('offline', state.lastHeard);
      break;
    default:
      assertNever(event, 'connection event');
  }
  return { state: step.state, effects: step.effects };
}
