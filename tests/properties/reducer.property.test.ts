import { applyEvent } from '@webbridge/client-sdk';
import type { DeltaEvent } from '@webbridge/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliver, expectApplied, overTheWire, type Subscriber } from './deliver';
import { FakeHost } from './FakeHost';
import { projectionCommand } from './projectionCommand';
import { SimulatedHub } from './SimulatedHub';

describe('reducer against the server (property)', () => {
  it("applying the server's events always reproduces the server's wire snapshot", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
        fc.array(projectionCommand, { minLength: 1, maxLength: 80 }),
        (speeds, commands) => {
          const host = new FakeHost();
          const server = new SimulatedHub();
          server.publish(host.state);
          const subscribers: Subscriber[] = speeds.map((speed) => ({ sent: undefined, client: null, speed }));
          let changes = 0;
          for (const c of commands) {
            if (c.t === 'deliver' || c.t === 'disconnect') {
              const target = subscribers[c.sub % subscribers.length]!;
              if (c.t === 'disconnect') target.sent = undefined;
              else deliver(server, host, target);
              continue;
            }
            host.apply(c);
            server.publish(host.state);
            changes++;
            for (const s of subscribers) if (changes % s.speed === 0) deliver(server, host, s);
          }
          for (const s of subscribers) deliver(server, host, s);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a delta at any other base than the state is refused, whatever it carries', () => {
    const host = new FakeHost();
    const server = new SimulatedHub();
    server.publish(host.state);
    const start = expectApplied(applyEvent(null, overTheWire(server.send(undefined, host.state).event!)));
    fc.assert(
      fc.property(
        fc.nat({ max: 1_000 }),
        fc.nat({ max: 1_000 }),
        fc.record(
          {
            cut: fc.nat({ max: 3 }),
            ap: fc.array(fc.tuple(fc.string(), fc.nat(), fc.string()), { maxLength: 2 }),
            run: fc.record({ state: fc.constant('idle' as const), messageId: fc.constant(null) }),
          },
          { requiredKeys: [] },
        ),
        (seq, base, fields) => {
          fc.pre(seq !== base);
          const delta: DeltaEvent = { kind: 'delta', seq: base + 1, base, ...fields };
          expect(applyEvent({ ...start, seq }, delta)).toEqual({ kind: 'resync', reason: 'wrong_base' });
        },
      ),
    );
  });
});
