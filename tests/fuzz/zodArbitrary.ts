import { stringRules } from '@webbridge/contract';
import fc from 'fast-check';
import { z } from 'zod';

/** Options of {@link zodArbitrary}. */
export interface ZodArbitraryOptions {
  /**
   * Longest random string or array where the schema sets no bound (bounded ones also get their
   * exact boundary lengths).
   * @default 12
   */
  readonly maxLength?: number;
}

/**
 * Characters random strings are made of: printable ASCII most of the time, plus the ones that
 * break naive code (quotes, backslashes, NUL, line separators, a non-BMP emoji, RTL, `</`).
 */
const UNIT = fc.oneof(
  { weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme-ascii' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '"',
      '\\',
      '\u0000',
      '\n',
      '\u2028',
      'é',
      '界',
      '😀',
      '\u202e',
      '</',
      '%00',
      ' ',
    ),
  },
);

/**
 * A string of exactly `length` UTF-16 code units, made of one repeated BMP character that each
 * of the schema's character-class `patterns` accepts.
 */
function filled(length: number, patterns: readonly RegExp[] = []): fc.Arbitrary<string> {
  const fits = ['x', 'é', '界', ' ', 'A', '0'].filter((ch) => patterns.every((p) => p.test(ch)));
  return fc.constantFrom(...fits).map((ch) => ch.repeat(length));
}

/** Fits `s` into [min, max] code units: the surrogate pair an emoji makes can overshoot. */
function fit(s: string, min: number, max: number): string {
  const cut = s.length > max ? s.slice(0, max) : s;
  return cut.length < min ? cut + 'x'.repeat(min - cut.length) : cut;
}

/** Random strings in [min, max], with the boundary lengths min, min+1, max-1 and max likely. */
function stringArbitrary(schema: z.ZodString, maxLength: number): fc.Arbitrary<string> {
  // Character-class patterns (`^[^…]*$`): a character that fails one alone is dropped.
  const { min, max, patterns, others } = stringRules(schema);
  const unsupported = others.find((kind) => kind !== 'trim');
  if (unsupported !== undefined)
    throw new Error(`zodArbitrary: string check "${unsupported}" is not supported`);
  const randomMax = Math.min(max, min + maxLength);
  const random = fc
    .string({ minLength: min, maxLength: randomMax, unit: UNIT })
    .map((s) => [...s].filter((ch) => patterns.every((p) => p.test(ch))).join(''))
    .map((s) => fit(s, min, Math.min(max, randomMax)));
  const bounds = [min, min + 1, max - 1, max].filter((n) => n >= min && n <= max && Number.isFinite(n));
  return fc.oneof(
    { weight: 6, arbitrary: random },
    { weight: 1, arbitrary: fc.constantFrom(...new Set(bounds)).chain((n) => filled(n, patterns)) },
  );
}

/** Numbers within the schema's bounds (integers when it says so), boundaries likely. */
function numberArbitrary(schema: z.ZodNumber): fc.Arbitrary<number> {
  let isInt = false;
  let min = Number.MIN_SAFE_INTEGER;
  let max = Number.MAX_SAFE_INTEGER;
  let minExclusive = false;
  let maxExclusive = false;
  for (const check of schema._def.checks) {
    if (check.kind === 'int') isInt = true;
    else if (check.kind === 'min') {
      min = check.value;
      minExclusive = !check.inclusive;
    } else if (check.kind === 'max') {
      max = check.value;
      maxExclusive = !check.inclusive;
    } else if (check.kind !== 'finite') {
      throw new Error(`zodArbitrary: number check "${check.kind}" is not supported`);
    }
  }
  if (isInt) {
    const lo = minExclusive ? Math.floor(min) + 1 : Math.ceil(min);
    const hi = maxExclusive ? Math.ceil(max) - 1 : Math.floor(max);
    const bounds = [lo, lo + 1, 0, hi - 1, hi].filter((n) => n >= lo && n <= hi);
    return fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: lo, max: Math.min(hi, lo + 1000) }) },
      { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
      { weight: 1, arbitrary: fc.constantFrom(...new Set(bounds)) },
    );
  }
  return (
    fc
      .double({
        min,
        max,
        minExcluded: minExclusive,
        maxExcluded: maxExclusive,
        noNaN: true,
        noDefaultInfinity: true,
      })
      // JSON has no -0: it arrives as 0, which is the same number to every schema anyway.
      .map((n) => (Object.is(n, -0) ? 0 : n))
  );
}

/** Array length bounds of a zod array. */
export function arrayBounds(schema: z.ZodArray<z.ZodTypeAny>): { min: number; max: number } {
  const def = schema._def;
  if (def.exactLength) return { min: def.exactLength.value, max: def.exactLength.value };
  return { min: def.minLength?.value ?? 0, max: def.maxLength?.value ?? Number.POSITIVE_INFINITY };
}

/** String length bounds of a zod string (0 and Infinity when unbounded). */
export function stringBounds(schema: z.ZodString): { min: number; max: number } {
  return {
    min: schema.minLength ?? 0,
    max: schema.maxLength ?? Number.POSITIVE_INFINITY,
  };
}

/**
 * A fast-check arbitrary of values that `schema` accepts, derived by walking the zod 3 schema
 * tree, so a change of the contract changes what is generated without any edit here. Bounded
 * strings, numbers and arrays hit their exact boundaries often, because that is where
 * off-by-one validation lives. It generates wire input (`z.input`), never transformed output.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(zodArbitrary(actionSchema), (a) => actionSchema.safeParse(a).success));
 * ```
 */
export function zodArbitrary<S extends z.ZodTypeAny>(
  schema: S,
  options: ZodArbitraryOptions = {},
): fc.Arbitrary<z.input<S>> {
  return derive(schema, options.maxLength ?? 12) as fc.Arbitrary<z.input<S>>;
}

function derive(schema: z.ZodTypeAny, maxLength: number): fc.Arbitrary<unknown> {
  const next = (inner: z.ZodTypeAny) => derive(inner, maxLength);
  if (schema instanceof z.ZodString) return stringArbitrary(schema, maxLength);
  if (schema instanceof z.ZodNumber) return numberArbitrary(schema);
  if (schema instanceof z.ZodBoolean) return fc.boolean();
  if (schema instanceof z.ZodNull) return fc.constant(null);
  if (schema instanceof z.ZodLiteral) return fc.constant(schema.value);
  if (schema instanceof z.ZodEnum) return fc.constantFrom(...(schema.options as string[]));
  if (schema instanceof z.ZodNativeEnum)
    return fc.constantFrom(...Object.values(schema.enum as Record<string, string | number>));
  if (schema instanceof z.ZodOptional) return fc.option(next(schema.unwrap()), { nil: undefined });
  if (schema instanceof z.ZodNullable) return fc.option(next(schema.unwrap()), { nil: null });
  if (schema instanceof z.ZodDefault) return fc.option(next(schema.removeDefault()), { nil: undefined });
  if (schema instanceof z.ZodObject) return objectArbitrary(schema, next);
  if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion)
    return fc.oneof(...(schema.options as z.ZodTypeAny[]).map(next));
  if (schema instanceof z.ZodArray) {
    const { min, max } = arrayBounds(schema);
    const random = fc.array(next(schema.element), { minLength: min, maxLength: Math.min(max, min + 4) });
    if (!Number.isFinite(max) || max > 200) return random;
    return fc.oneof(
      { weight: 5, arbitrary: random },
      { weight: 1, arbitrary: fc.array(next(schema.element), { minLength: max, maxLength: max }) },
    );
  }
  if (schema instanceof z.ZodTuple) return fc.tuple(...(schema.items as z.ZodTypeAny[]).map(next));
  if (schema instanceof z.ZodRecord) {
    // Record keys from the wire are plain strings; `__proto__` is a key a hostile peer sends.
    const key = fc.oneof({ weight: 9, arbitrary: next(schema.keySchema) }, fc.constant('__proto__'));
    return fc.dictionary(key as fc.Arbitrary<string>, next(schema.valueSchema), { maxKeys: 4 });
  }
  if (schema instanceof z.ZodEffects) {
    const inner = next(schema.innerType());
    // A refinement can only be met by filtering; a transform's input is its inner schema's.
    return schema._def.effect.type === 'refinement'
      ? inner.filter((v) => schema.safeParse(v).success)
      : inner;
  }
  if (schema instanceof z.ZodLazy) return next(schema.schema);
  if (schema instanceof z.ZodBranded) return next(schema.unwrap());
  if (schema instanceof z.ZodReadonly) return next(schema._def.innerType);
  if (schema instanceof z.ZodCatch) return next(schema.removeCatch());
  if (schema instanceof z.ZodPipeline) return next(schema._def.in);
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return fc.jsonValue({ maxDepth: 2 });
  throw new Error(`zodArbitrary: ${schema._def.typeName ?? 'this schema'} is not supported`);
}

/** Required keys always, optional keys sometimes; a strict object never gets others. */
function objectArbitrary(
  schema: z.AnyZodObject,
  next: (inner: z.ZodTypeAny) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const shape = schema.shape as Record<string, z.ZodTypeAny>;
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    if (field.isOptional()) {
      // Absent rather than `undefined`: JSON drops undefined anyway, and the wire is JSON.
      model[key] = field instanceof z.ZodOptional ? next(field.unwrap()) : next(field);
    } else {
      model[key] = next(field);
      requiredKeys.push(key);
    }
  }
  return fc.record(model, { requiredKeys });
}
