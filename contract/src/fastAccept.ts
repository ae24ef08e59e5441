import { z } from 'zod';

/** Whether a value passes a schema; never allocates, never throws. */
export type Accepts = (value: unknown) => boolean;

/**
 * A fast test that a value passes a zod schema, derived from the schema itself: a tree of small
 * closures, one per schema node, instead of zod 3's walk that builds a context, a path and a
 * result object per node (a large share of an action request's time and allocations,
 * docs/PERFORMANCE.md). Used as zod 4's `z.compile` uses its compiled code: when it says yes,
 * the value is taken as it is; when it says no, zod parses it to give its own issues.
 *
 * It must never say yes where zod says no, and the value it takes must be what zod would have
 * returned. So it knows only the kinds and checks below, with zod 3's own semantics, and only
 * schemas with no transform, default or catch (their output equals their input for JSON):
 * strict objects, discriminated unions of them, strings with `min`/`max`/`length`/`regex`, numbers with
 * `int`/`min`/`max`/`finite`, literals, enums, booleans, arrays with length bounds, optionals,
 * plain unions of these.
 * Anything else gives undefined, and the caller parses with zod. tests/properties/
 * fastAccept.test.ts holds it to zod on generated values.
 */
export function fastAccept(schema: z.ZodTypeAny): Accepts | undefined {
  if (schema instanceof z.ZodString) return stringCheck(schema);
  if (schema instanceof z.ZodNumber) return numberCheck(schema);
  if (schema instanceof z.ZodBoolean) {
    return schema._def.coerce ? undefined : (value) => typeof value === 'boolean';
  }
  if (schema instanceof z.ZodLiteral) return literalCheck(schema);
  if (schema instanceof z.ZodEnum) {
    const values = new Set<unknown>(schema.options as string[]);
    return (value) => typeof value === 'string' && values.has(value);
  }
  if (schema instanceof z.ZodOptional) {
    const inner = fastAccept(schema.unwrap());
    return inner && ((value) => value === undefined || inner(value));
  }
  if (schema instanceof z.ZodArray) return arrayCheck(schema);
  if (schema instanceof z.ZodObject) return strictObjectCheck(schema);
  if (schema instanceof z.ZodDiscriminatedUnion) return discriminatedCheck(schema);
  if (schema instanceof z.ZodUnion) return unionCheck(schema);
  return undefined;
}

/** A plain union: accepted when one of its members is (each derived the same way, or none is). */
function unionCheck(schema: z.ZodUnion<readonly [z.ZodTypeAny, ...z.ZodTypeAny[]]>): Accepts | undefined {
  const members: Accepts[] = [];
  for (const option of schema.options) {
    const check = fastAccept(option);
    if (check === undefined) return undefined;
    members.push(check);
  }
  return (value) => members.some((accepts) => accepts(value));
}

/** What a zod 3 string's checks ask, gathered: its length bounds, its patterns, other kinds. */
export interface StringRules {
  readonly min: number;
  readonly max: number;
  readonly patterns: readonly RegExp[];
  /** The kinds of the checks besides these (`email`, `trim`...). */
  readonly others: readonly string[];
}

/** Reads a zod 3 string's checks (this check, and the fuzzer's generator of strings). */
export function stringRules(schema: z.ZodString): StringRules {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  const patterns: RegExp[] = [];
  const others: string[] = [];
  for (const check of schema._def.checks) {
    if (check.kind === 'regex') patterns.push(check.regex);
    else if (check.kind === 'min') min = Math.max(min, check.value);
    else if (check.kind === 'max') max = Math.min(max, check.value);
    else if (check.kind === 'length') {
      min = Math.max(min, check.value);
      max = Math.min(max, check.value);
    } else others.push(check.kind);
  }
  return { min, max, patterns, others };
}

function stringCheck(schema: z.ZodString): Accepts | undefined {
  if (schema._def.coerce) return undefined;
  const { min, max, patterns, others } = stringRules(schema);
  if (others.length > 0) return undefined;
  // zod 3 measures `.length` (UTF-16 code units), as this does, and resets a pattern's
  // lastIndex before each test (a global pattern would otherwise resume where it stopped).
  return (value) => {
    if (typeof value !== 'string' || value.length < min || value.length > max) return false;
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      if (!pattern.test(value)) return false;
    }
    return true;
  };
}

function numberCheck(schema: z.ZodNumber): Accepts | undefined {
  if (schema._def.coerce) return undefined;
  const tests: ((value: number) => boolean)[] = [];
  for (const check of schema._def.checks) {
    const { kind } = check;
    if (kind === 'int') tests.push(Number.isInteger);
    else if (kind === 'finite') tests.push(Number.isFinite);
    else if (kind === 'min') {
      const { value: bound, inclusive } = check;
      tests.push(inclusive ? (value) => value >= bound : (value) => value > bound);
    } else if (kind === 'max') {
      const { value: bound, inclusive } = check;
      tests.push(inclusive ? (value) => value <= bound : (value) => value < bound);
    } else return undefined;
  }
  // zod 3 refuses NaN as a number; Infinity passes unless `finite` or `int` is asked for.
  return (value) => {
    if (typeof value !== 'number' || Number.isNaN(value)) return false;
    for (const test of tests) if (!test(value)) return false;
    return true;
  };
}

function literalCheck(schema: z.ZodLiteral<unknown>): Accepts | undefined {
  const expected = schema.value;
  if (typeof expected === 'number' && Number.isNaN(expected)) return undefined;
  return (value) => value === expected;
}

function arrayCheck(schema: z.ZodArray<z.ZodTypeAny>): Accepts | undefined {
  const item = fastAccept(schema.element);
  if (item === undefined) return undefined;
  const { minLength, maxLength, exactLength } = schema._def;
  const min = Math.max(minLength?.value ?? 0, exactLength?.value ?? 0);
  const max = Math.min(
    maxLength?.value ?? Number.POSITIVE_INFINITY,
    exactLength?.value ?? Number.POSITIVE_INFINITY,
  );
  return (value) => {
    if (!Array.isArray(value) || value.length < min || value.length > max) return false;
    for (const entry of value) if (!item(entry)) return false;
    return true;
  };
}

/** A plain object as zod 3 sees one (JSON.parse makes no Dates, Maps, Sets nor promises). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

function strictObjectCheck(schema: z.AnyZodObject): Accepts | undefined {
  // A stripping or passing-through object returns something else than it was given.
  if (schema._def.unknownKeys !== 'strict' || !(schema._def.catchall instanceof z.ZodNever)) return undefined;
  const fields: [string, Accepts][] = [];
  for (const [key, field] of Object.entries(schema.shape as z.ZodRawShape)) {
    const accepts = fastAccept(field);
    if (accepts === undefined) return undefined;
    fields.push([key, accepts]);
  }
  const known = new Set(fields.map(([key]) => key));
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const key in value) if (!known.has(key)) return false;
    for (const [key, accepts] of fields) if (!accepts(value[key])) return false;
    return true;
  };
}

function discriminatedCheck(
  schema: z.ZodDiscriminatedUnion<string, z.ZodDiscriminatedUnionOption<string>[]>,
): Accepts {
  const byValue = new Map<unknown, Accepts>();
  for (const [value, option] of schema.optionsMap) {
    const accepts = fastAccept(option);
    // An option it cannot follow is left to zod: its values are never accepted here.
    if (accepts !== undefined) byValue.set(value, accepts);
  }
  const { discriminator } = schema;
  return (value) => {
    if (!isPlainObject(value)) return false;
    const accepts = byValue.get(value[discriminator]);
    return accepts?.(value) === true;
  };
}

/**
 * `schema.safeParse` with the {@link fastAccept} test first: a value it accepts is returned as
 * it is (zod's result for it would be an equal object); any other goes through zod.
 */
export function fastParser<S extends z.ZodTypeAny>(
  schema: S,
): (value: unknown) => z.SafeParseReturnType<z.input<S>, z.output<S>> {
  const accepts = fastAccept(schema);
  if (accepts === undefined) return (value) => schema.safeParse(value);
  return (value) =>
    accepts(value) ? { success: true, data: value as z.output<S> } : schema.safeParse(value);
}
