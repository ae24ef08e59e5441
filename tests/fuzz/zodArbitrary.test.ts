import {
  ACTION_NAMES,
  actionSchema,
  contract,
  localeSchema,
  problemSchema,
  snapshotSchema,
  stateEventSchema,
} from '@webbridge/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodArbitrary } from './zodArbitrary';
import { zodNearValid } from './zodNearValid';

const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const uploadQuery = contract.upload.query;
const SCHEMAS: ReadonlyArray<readonly [string, z.ZodTypeAny]> = [
  ['action', actionSchema],
  ['snapshot', snapshotSchema],
  ['state event', stateEventSchema],
  ['locale', localeSchema],
  ['problem', problemSchema],
  ['upload query', uploadQuery],
  [
    'the other zod kinds',
    z.object({
      u: z.union([z.string().length(3), z.number().int().gt(5).lt(9)]),
      n: z.string().nullable(),
      r: z.record(z.boolean()),
      t: z.tuple([z.literal(1), z.enum(['a', 'b'])]),
      d: z.number().min(-1).max(1).default(0),
      e: z.string().refine((s) => !s.includes('q')),
      o: z.array(z.null()).min(1).max(2).optional(),
    }),
  ],
];

describe('zodArbitrary', () => {
  for (const [name, schema] of SCHEMAS) {
    it(`generates only values the ${name} schema accepts, also after a JSON round trip`, () => {
      fc.assert(
        fc.property(zodArbitrary(schema), (value) => {
          expect(schema.safeParse(value).error?.issues).toBeUndefined();
          expect(schema.safeParse(wire(value)).error?.issues).toBeUndefined();
        }),
        { seed: 1, numRuns: 300 },
      );
    });
  }

  it('produces every action of the union', () => {
    const seen = new Set(
      fc.sample(zodArbitrary(actionSchema), { seed: 2, numRuns: 2000 }).map((a) => a.action),
    );
    expect([...seen].sort()).toEqual([...ACTION_NAMES].sort());
  });

  it('hits the exact boundary lengths of bounded strings, arrays and integers', () => {
    const schema = z.object({
      s: z.string().min(1).max(200),
      a: z.array(z.boolean()).max(7),
      i: z.number().int().nonnegative().max(50),
    });
    const values = fc.sample(zodArbitrary(schema), { seed: 3, numRuns: 1000 });
    const lengths = new Set(values.map((v) => v.s.length));
    expect(lengths).toContain(1);
    expect(lengths).toContain(200);
    expect(lengths).toContain(199);
    expect(new Set(values.map((v) => v.a.length))).toContain(7);
    expect(values.some((v) => v.i === 0) && values.some((v) => v.i === 50)).toBe(true);
  });

  it('refuses what it cannot derive instead of guessing', () => {
    expect(() => zodArbitrary(z.string().email())).toThrow(/email/);
    expect(() => zodArbitrary(z.date())).toThrow(/ZodDate/);
  });
});

describe('zodNearValid', () => {
  for (const [name, schema] of SCHEMAS) {
    it(`generates only values the ${name} schema refuses, also after a JSON round trip`, () => {
      const arbitrary = zodNearValid(schema);
      if (!arbitrary) throw new Error('no mutation');
      fc.assert(
        fc.property(arbitrary, ({ value, how }) => {
          expect(schema.safeParse(value).success, how).toBe(false);
          expect(schema.safeParse(wire(value)).success, how).toBe(false);
        }),
        { seed: 4, numRuns: 300 },
      );
    });
  }

  it('breaks actions in every way it knows: missing, extra key, wrong type, bounds, unknown member', () => {
    const arbitrary = zodNearValid(actionSchema);
    if (!arbitrary) throw new Error('no mutation');
    const hows = fc.sample(arbitrary, { seed: 5, numRuns: 3000 }).map((m) => m.how);
    for (const expected of [
      /: missing$/,
      /__proto__: extra key$/,
      /wrong type/,
      /characters \(max \d+\)$/,
      /characters \(min 1\)$/,
      /items \(max 100\)$/,
      /not an integer$/,
      /below 0$/,
      /not one of the enum$/,
      /^action: unknown member/,
      /^settings\.theme/,
    ]) {
      expect(
        hows.some((how) => expected.test(how)),
        String(expected),
      ).toBe(true);
    }
  });

  it('has nothing to break in a schema that accepts everything', () => {
    expect(zodNearValid(z.unknown())).toBeUndefined();
  });
});
