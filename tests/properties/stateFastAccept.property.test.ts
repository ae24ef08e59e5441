import {
  decodeFrame,
  fastAccept,
  fastParser,
  parseJsonSafely,
  STATE_EVENT,
  snapshotSchema,
  stateEventSchema,
} from '@webbridge/contract';
import { aSnapshot } from '@webbridge/contract/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodArbitrary } from '../fuzz/zodArbitrary';
import { zodNearValid } from '../fuzz/zodNearValid';
import { FakeHost } from './FakeHost';
import { projectionCommand } from './projectionCommand';
import { SimulatedHub } from './SimulatedHub';

/** The schemas the SDK checks the state with (client.ts, decodeFrame.ts). */
const SCHEMAS = { snapshot: snapshotSchema, stateEvent: stateEventSchema } as const;

/** A value as the SDK receives it: sent as JSON, read by parseJsonSafely. */
const overJson = (value: unknown): unknown => parseJsonSafely(JSON.stringify(value));

/**
 * The SDK's check must give zod's answer for every value: the same success, the same data (a
 * value accepted fast is returned as it is, so zod must return it unchanged), the same issues.
 */
function expectZodsAnswer(schema: z.ZodTypeAny, value: unknown): boolean {
  const zods = schema.safeParse(value);
  const fast = fastParser(schema)(value);
  const accepted = fastAccept(schema)!(value);
  if (accepted && !zods.success)
    throw new Error(`accepted but zod refuses: ${zods.error.issues[0]?.message}`);
  expect(fast.success).toBe(zods.success);
  if (zods.success) expect(fast.data).toStrictEqual(zods.data);
  else expect(fast.error?.issues).toEqual(zods.error.issues);
  return accepted;
}

/** Every plain object inside `value`, with the value itself. */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) objectsIn(item, out);
  else if (typeof value === 'object' && value !== null) {
    out.push(value as Record<string, unknown>);
    for (const item of Object.values(value)) objectsIn(item, out);
  }
  return out;
}

/** A valid value with one key zod's stripping objects drop, added to one of its objects. */
function withUnknownKey(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom('extra', 'Id', 'toString', '', ' '),
      fc.jsonValue({ maxDepth: 1 }),
    )
    .map(([value, at, key, extra]) => {
      const copy = overJson(value);
      const objects = objectsIn(copy);
      const target = objects[at % objects.length]!;
      Object.defineProperty(target, key, {
        value: extra,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return copy;
    });
}

describe('fastAccept on the state the SDK receives (property)', () => {
  it('derives a test for the snapshot and the state events', () => {
    expect(fastAccept(snapshotSchema)).toBeDefined();
    expect(fastAccept(stateEventSchema)).toBeDefined();
  });

  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`accepts every valid ${name}, and zod returns it unchanged`, () => {
      fc.assert(
        fc.property(zodArbitrary(schema, { maxLength: 4 }).map(overJson), (value) => {
          expect(expectZodsAnswer(schema, value)).toBe(true);
        }),
        { numRuns: 300 },
      );
    }, 60_000);

    it(`gives zod's refusal for a ${name} broken in one place (wrong type, missing, bad enum, out of bounds)`, () => {
      const broken = zodNearValid(schema)!;
      let refused = 0;
      fc.assert(
        fc.property(broken, ({ value, how }) => {
          const sent = overJson(value);
          // A few mutations only JSON undoes (an extra `undefined`); what still fails must match.
          if (schema.safeParse(sent).success) return;
          refused++;
          expect(fastAccept(schema)!(sent), how).toBe(false);
          expectZodsAnswer(schema, sent);
        }),
        { numRuns: 400 },
      );
      expect(refused).toBeGreaterThan(300);
    }, 60_000);

    it(`leaves a ${name} with an unknown key anywhere to zod, which strips it`, () => {
      fc.assert(
        fc.property(withUnknownKey(zodArbitrary(schema, { maxLength: 3 })), (value) => {
          expect(fastAccept(schema)!(value)).toBe(false);
          expectZodsAnswer(schema, value);
        }),
        { numRuns: 300 },
      );
    }, 60_000);
  }

  it('accepts every event a simulated host sends, and the wire snapshots (fixtures)', () => {
    const accepts = fastAccept(stateEventSchema)!;
    let events = 0;
    fc.assert(
      fc.property(fc.array(projectionCommand, { minLength: 1, maxLength: 40 }), (commands) => {
        const host = new FakeHost();
        const server = new SimulatedHub();
        server.publish(host.state);
        let sent = server.send(undefined, host.state);
        for (const command of commands) {
          if (command.t === 'deliver' || command.t === 'disconnect') continue;
          host.apply(command);
          server.publish(host.state);
          const next = server.send(sent.sent, host.state);
          if (next.event !== undefined && next.event.kind !== 'append') {
            const value = overJson(next.event);
            expect(accepts(value), next.event.kind).toBe(true);
            expect(fastAccept(snapshotSchema)!(overJson(server.wire(host.state)))).toBe(true);
            events++;
          }
          sent = next;
        }
      }),
      { numRuns: 100 },
    );
    expect(events).toBeGreaterThan(100);
    expect(fastAccept(snapshotSchema)!(overJson(aSnapshot()))).toBe(true);
  }, 60_000);

  it('decodeFrame keeps zod’s answers: stripped keys, refusals with zod’s issues', () => {
    const event = { kind: 'snapshot' as const, seq: 1, signature: 's', snapshot: aSnapshot() };
    const frame = (data: unknown) => ({ event: STATE_EVENT, id: '1', data: JSON.stringify(data) });
    expect(decodeFrame(frame({ ...event, snapshot: { ...event.snapshot, extra: 1 } }))).toStrictEqual({
      type: 'state',
      event,
    });
    const broken = { ...event, snapshot: { ...event.snapshot, sessionRevision: 0.5 } };
    const decoded = decodeFrame(frame(broken));
    expect(decoded).toMatchObject({ type: 'failure', kind: 'invalid_frame' });
    expect(decoded?.type === 'failure' && (decoded.cause as z.ZodError).issues).toEqual(
      stateEventSchema.safeParse(broken).error?.issues,
    );
  });
});

describe('fastAccept on stripping objects and what holds them', () => {
  const strip = z.object({ a: z.string(), b: z.number().optional() });

  it('accepts a stripping object without unknown keys, and leaves one with them to zod', () => {
    expect(fastParser(strip)({ a: 'x' })).toStrictEqual({ success: true, data: { a: 'x' } });
    expect(fastAccept(strip)!({ a: 'x', c: 1 })).toBe(false);
    expect(fastParser(strip)({ a: 'x', c: 1 })).toStrictEqual({ success: true, data: { a: 'x' } });
    expect(fastAccept(strip)!(JSON.parse('{"a":"x","__proto__":{}}'))).toBe(false);
  });

  it('derives no union with a stripping member: zod may pick it first and strip', () => {
    const union = z.union([strip, z.object({ a: z.string(), c: z.number() }).strict()]);
    expect(union.safeParse({ a: 'x', c: 1 })).toStrictEqual({ success: true, data: { a: 'x' } });
    expect(fastAccept(union)).toBeUndefined();
    expect(fastAccept(z.union([z.string(), z.boolean()]))).toBeDefined();
    expect(fastAccept(z.union([z.string(), z.object({ a: z.string() }).strict()]))).toBeDefined();
  });

  it('follows zod on tuples and nullables', () => {
    const cases: [z.ZodTypeAny, unknown[]][] = [
      [z.tuple([z.string(), z.number().int()]), [['a', 1], ['a'], ['a', 1, 2], ['a', 1.5], [], 'a', null]],
      [z.tuple([z.string()]).rest(z.number()), [['a'], ['a', 1, 2], ['a', 1, 'b'], [1]]],
      [z.string().nullable(), [null, 'a', undefined, 1]],
      [z.string().nullable().optional(), [null, 'a', undefined, 1]],
    ];
    for (const [schema, values] of cases) {
      for (const value of values) {
        expect(fastAccept(schema)!(value), JSON.stringify(value)).toBe(schema.safeParse(value).success);
      }
    }
  });
});
