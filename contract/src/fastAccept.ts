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
 * objects (strict ones; stripping ones only when the value has no key they would strip),
 * discriminated unions of them, strings with `min`/`max`/`length`/`regex`, numbers with
 * `int`/`min`/`max`/`finite`, literals, enums, booleans, arrays with length bounds, tuples,
 * optionals, nullables, plain unions of these (of members zod never changes, see `exact`).
 * Anything else gives undefined, and the caller parses with zod. tests/properties/
 * fastAccept.property.test.ts holds it to zod on generated values, and
 * stateFastAccept.property.test.ts on states and events.
 */
export function fastAccept(schema: z.ZodTypeAny): Accepts | undefined {
  return derive(schema)?.accepts;
}

/**
 * A schema's fast test, and whether zod returns every value it takes unchanged (`exact`): not
 * so for a stripping object, which zod takes with unknown keys and returns without them. A
 * union needs to know (unionCheck).
 */
interface Derived {
  readonly accepts: Accepts;
  readonly exact: boolean;
}

function derive(schema: z.ZodTypeAny): Derived | undefined {
  if (schema instanceof z.ZodObject) return objectCheck(schema);
  if (schema instanceof z.ZodArray) return arrayCheck(schema);
  if (schema instanceof z.ZodOptional) {
    const inner = derive(schema.unwrap());
    return inner && { accepts: (value) => value === undefined || inner.accepts(value), exact: inner.exact };
  }
  if (schema instanceof z.ZodNullable) {
    const inner = derive(schema.unwrap());
    return inner && { accepts: (value) => value === null || inner.accepts(value), exact: inner.exact };
  }
  if (schema instanceof z.ZodDiscriminatedUnion) return discriminatedCheck(schema);
  if (schema instanceof z.ZodUnion) return unionCheck(schema);
  if (schema instanceof z.ZodTuple) return tupleCheck(schema);
  return exactly(leafCheck(schema));
}

function exactly(accepts: Accepts | undefined): Derived | undefined {
  return accepts && { accepts, exact: true };
}

/** The kinds with no inner schema: zod returns the very value it takes. */
function leafCheck(schema: z.ZodTypeAny): Accepts | undefined {
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
  return undefined;
}

/**
 * A plain union: accepted when one of its members is (each derived the same way, or none is).
 * zod returns the first member that takes the value, which may come before the one this test
 * found (a stripping object takes a value with an unknown key that this refuses), so every
 * member must be exact: whichever zod picks, it returns the value unchanged.
 */
function unionCheck(schema: z.ZodUnion<readonly [z.ZodTypeAny, ...z.ZodTypeAny[]]>): Derived | undefined {
  const members: Accepts[] = [];
  for (const option of schema.options) {
    const check = derive(option);
    if (check === undefined || !check.exact) return undefined;
    members.push(check.accepts);
  }
  return { accepts: (value) => members.some((accepts) => accepts(value)), exact: true };
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
    for (let i = 0; i < patterns.length; i++) {
      const pattern = patterns[i]!;
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
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(value)) return false;
    return true;
  };
}

function literalCheck(schema: z.ZodLiteral<unknown>): Accepts | undefined {
  const expected = schema.value;
  if (typeof expected === 'number' && Number.isNaN(expected)) return undefined;
  return (value) => value === expected;
}

function arrayCheck(schema: z.ZodArray<z.ZodTypeAny>): Derived | undefined {
  const element = derive(schema.element);
  if (element === undefined) return undefined;
  const item = element.accepts;
  const { minLength, maxLength, exactLength } = schema._def;
  const min = Math.max(minLength?.value ?? 0, exactLength?.value ?? 0);
  const max = Math.min(
    maxLength?.value ?? Number.POSITIVE_INFINITY,
    exactLength?.value ?? Number.POSITIVE_INFINITY,
  );
  return {
    accepts: (value) => {
      if (!Array.isArray(value) || value.length < min || value.length > max) return false;
      for (let i = 0; i < value.length; i++) if (!item(value[i])) return false;
      return true;
    },
    exact: element.exact,
  };
}

/** zod 3's tuple: an array of at least its items' count, and no more unless it has a rest. */
function tupleCheck(
  schema: z.ZodTuple<[z.ZodTypeAny, ...z.ZodTypeAny[]], z.ZodTypeAny | null>,
): Derived | undefined {
  const items: Accepts[] = [];
  let exact = true;
  for (const item of schema.items as z.ZodTypeAny[]) {
    const check = derive(item);
    if (check === undefined) return undefined;
    items.push(check.accepts);
    exact &&= check.exact;
  }
  const restSchema: z.ZodTypeAny | null = schema._def.rest;
  const rest = restSchema === null ? undefined : derive(restSchema);
  if (restSchema !== null && rest === undefined) return undefined;
  exact &&= rest?.exact ?? true;
  const count = items.length;
  return {
    accepts: (value) => {
      if (!Array.isArray(value) || value.length < count || (rest === undefined && value.length > count)) {
        return false;
      }
      for (let i = 0; i < count; i++) if (!items[i]!(value[i])) return false;
      for (let i = count; i < value.length; i++) if (!rest!.accepts(value[i])) return false;
      return true;
    },
    exact,
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

/**
 * A strict object, or a stripping one (zod 3's default): both return a value with no unknown
 * key unchanged, so this accepts only such values. A stripping object's value with an unknown
 * key goes to zod, which strips it (so a stripping object is not `exact`). A passing-through
 * object or one with a catchall is left to zod: it copies unknown keys but drops `__proto__`.
 */
function objectCheck(schema: z.AnyZodObject): Derived | undefined {
  const { unknownKeys, catchall } = schema._def;
  if ((unknownKeys !== 'strict' && unknownKeys !== 'strip') || !(catchall instanceof z.ZodNever))
    return undefined;
  const keys: string[] = [];
  const checks: Accepts[] = [];
  let exact = unknownKeys === 'strict';
  for (const [key, field] of Object.entries(schema.shape as z.ZodRawShape)) {
    const check = derive(field);
    if (check === undefined) return undefined;
    keys.push(key);
    checks.push(check.accepts);
    exact &&= check.exact;
  }
  const known = new Set(keys);
  // Indexed loops, not for-of: a phone opening a long conversation runs this before V8 has
  // optimised it, where each iterator and destructured pair costs (docs/PERFORMANCE.md).
  return {
    accepts: (value) => {
      if (!isPlainObject(value)) return false;
      for (const key in value) if (!known.has(key)) return false;
      for (let i = 0; i < keys.length; i++) if (!checks[i]!(value[keys[i]!])) return false;
      return true;
    },
    exact,
  };
}

/** zod 3 picks the one option the discriminator names, so no option's order matters here. */
function discriminatedCheck(
  schema: z.ZodDiscriminatedUnion<string, z.ZodDiscriminatedUnionOption<string>[]>,
): Derived {
  const byValue = new Map<unknown, Accepts>();
  let exact = true;
  for (const [value, option] of schema.optionsMap) {
    const check = derive(option);
    // An option it cannot follow is left to zod: its values are never accepted here.
    if (check !== undefined) byValue.set(value, check.accepts);
    exact &&= check?.exact === true;
  }
  const { discriminator } = schema;
  return {
    accepts: (value) => {
      if (!isPlainObject(value)) return false;
      const accepts = byValue.get(value[discriminator]);
      return accepts?.(value) === true;
    },
    exact,
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
