import fc from 'fast-check';
import { z } from 'zod';
import { arrayBounds, stringBounds, zodArbitrary } from './zodArbitrary';

/** A value one step away from valid, and what was done to it. */
export interface NearValid {
  readonly value: unknown;
  /** Where and how it was broken, e.g. `settings.theme: not one of the enum`. */
  readonly how: string;
}

/** Values of another JSON type than the schema wants (never `undefined`: JSON drops it). */
const WRONG_TYPES: readonly unknown[] = [null, 0, -1.5, '', 'x', true, [], {}];

/** Keys an object must refuse when strict; `__proto__` and `constructor` are the hostile ones. */
const EXTRA_KEYS = ['extra', '__proto__', 'constructor', 'toString', ' ', ''];

const at = (path: string, how: string) => (path === '' ? how : `${path}: ${how}`);
const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

function wrongType(schema: z.ZodTypeAny, path: string): fc.Arbitrary<NearValid> {
  const wrong = WRONG_TYPES.filter((v) => !schema.safeParse(v).success);
  return fc
    .constantFrom(...wrong)
    .map((value) => ({ value, how: at(path, `wrong type ${JSON.stringify(value)}`) }));
}

/**
 * A fast-check arbitrary of near-valid values for `schema`: a valid value (from
 * {@link zodArbitrary}) with exactly one thing broken, anywhere in the tree: a field of the
 * wrong type, a required key missing, an extra key on a strict object, a string or array one
 * past its bound, a number out of range or not an integer, an unknown enum member or
 * discriminator. Every value it yields is refused by `schema` (the unit test holds it to that),
 * and it survives a JSON round trip unchanged in validity, so it can be sent on the wire.
 * Returns undefined for a schema that accepts everything (`z.unknown()`).
 */
export function zodNearValid(schema: z.ZodTypeAny, path = ''): fc.Arbitrary<NearValid> | undefined {
  const options = mutations(schema, path);
  if (options.length === 0) return undefined;
  const arbitrary = fc.oneof(...options);
  // A union's member broken may still be another member; only a check can tell.
  return schema instanceof z.ZodUnion
    ? arbitrary.filter((m) => !schema.safeParse(m.value).success)
    : arbitrary;
}

function mutations(schema: z.ZodTypeAny, path: string): fc.Arbitrary<NearValid>[] {
  if (schema instanceof z.ZodString) {
    const { min, max } = stringBounds(schema);
    const out = [wrongType(schema, path)];
    if (Number.isFinite(max))
      out.push(
        fc.constant({ value: 'x'.repeat(max + 1), how: at(path, `${max + 1} characters (max ${max})`) }),
      );
    if (min > 0)
      out.push(
        fc.constant({ value: 'x'.repeat(min - 1), how: at(path, `${min - 1} characters (min ${min})`) }),
      );
    // A control character within the length bounds, where the schema has a pattern refusing it.
    const controlled = `\u0001${'x'.repeat(Math.max(0, min - 1))}`;
    if (controlled.length <= max && !schema.safeParse(controlled).success)
      out.push(fc.constant({ value: controlled, how: at(path, 'a control character') }));
    return out;
  }
  if (schema instanceof z.ZodNumber) {
    const out = [wrongType(schema, path)];
    const broken = (value: number, how: string) => fc.constant({ value, how: at(path, how) });
    if (schema.isInt) out.push(broken(0.5, 'not an integer'));
    if (schema.minValue !== null && schema.minValue > Number.MIN_SAFE_INTEGER)
      out.push(broken(schema.minValue - 1, `below ${schema.minValue}`));
    if (schema.maxValue !== null && schema.maxValue < Number.MAX_SAFE_INTEGER)
      out.push(broken(schema.maxValue + 1, `above ${schema.maxValue}`));
    return out.map((a) => a.filter((m) => !schema.safeParse(m.value).success));
  }
  if (schema instanceof z.ZodBoolean || schema instanceof z.ZodNull) return [wrongType(schema, path)];
  if (schema instanceof z.ZodLiteral) {
    const value: unknown = schema.value;
    const near =
      typeof value === 'string'
        ? [`${value}x`, value.toUpperCase(), '']
        : typeof value === 'number'
          ? [value + 1]
          : [];
    const wrong = [...near, ...WRONG_TYPES].filter((v) => !schema.safeParse(v).success);
    return [
      fc.constantFrom(...wrong).map((v) => ({ value: v, how: at(path, `not ${JSON.stringify(value)}`) })),
    ];
  }
  if (schema instanceof z.ZodEnum) {
    const members = schema.options as string[];
    const near = [`${members[0]}x`, (members[0] ?? '').toUpperCase(), ''].filter((v) => !members.includes(v));
    return [
      wrongType(schema, path),
      fc.constantFrom(...near).map((value) => ({ value, how: at(path, 'not one of the enum') })),
    ];
  }
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) {
    const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema.removeDefault();
    return mutations(inner, path).map((a) => a.filter((m) => m.value !== undefined));
  }
  if (schema instanceof z.ZodNullable)
    return mutations(schema.unwrap(), path).map((a) => a.filter((m) => m.value !== null));
  if (schema instanceof z.ZodObject) return objectMutations(schema, path);
  if (schema instanceof z.ZodDiscriminatedUnion) return unionMutations(schema, path);
  if (schema instanceof z.ZodUnion)
    return [
      wrongType(schema, path),
      ...(schema.options as z.ZodTypeAny[]).flatMap((option) => mutations(option, path)),
    ];
  if (schema instanceof z.ZodArray) return arrayMutations(schema, path);
  if (schema instanceof z.ZodTuple) {
    const items = schema.items as z.ZodTypeAny[];
    const base = zodArbitrary(schema) as fc.Arbitrary<unknown[]>;
    const out = [
      wrongType(schema, path),
      base.map((value) => ({ value: [...value, 0], how: at(path, 'one item too many') })),
    ];
    items.forEach((item, index) => {
      const broken = zodNearValid(item, join(path, index));
      if (broken)
        out.push(
          fc
            .tuple(base, broken)
            .map(([value, m]) => ({ value: value.map((v, i) => (i === index ? m.value : v)), how: m.how })),
        );
    });
    return out;
  }
  if (schema instanceof z.ZodRecord) {
    const value = zodNearValid(schema.valueSchema, join(path, '<key>'));
    const out = [wrongType(schema, path)];
    if (value) out.push(value.map((m) => ({ value: { key: m.value }, how: m.how })));
    return out;
  }
  if (schema instanceof z.ZodEffects) return mutations(schema.innerType(), path);
  if (schema instanceof z.ZodLazy) return mutations(schema.schema, path);
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return [];
  throw new Error(`zodNearValid: ${schema._def.typeName ?? 'this schema'} is not supported`);
}

function objectMutations(schema: z.AnyZodObject, path: string): fc.Arbitrary<NearValid>[] {
  const shape = schema.shape as Record<string, z.ZodTypeAny>;
  const base = zodArbitrary(schema) as fc.Arbitrary<Record<string, unknown>>;
  const out = [wrongType(schema, path)];
  const required = Object.keys(shape).filter((key) => !shape[key]?.isOptional());
  if (required.length > 0) {
    out.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([value, key]) => {
        const { [key]: _removed, ...rest } = value;
        return { value: rest, how: at(join(path, key), 'missing') };
      }),
    );
  }
  if (schema._def.unknownKeys === 'strict') {
    const extra = [...EXTRA_KEYS, ...Object.keys(shape).map((k) => k.toUpperCase())].filter(
      (k) => !Object.hasOwn(shape, k),
    );
    out.push(
      fc
        .tuple(base, fc.constantFrom(...extra), fc.jsonValue({ maxDepth: 1 }))
        .map(([value, key, extraValue]) => {
          // defineProperty: a plain assignment of `__proto__` would set the prototype, not a key.
          const copy = { ...value };
          Object.defineProperty(copy, key, {
            value: extraValue,
            enumerable: true,
            writable: true,
            configurable: true,
          });
          return { value: copy, how: at(join(path, key), 'extra key') };
        }),
    );
  }
  for (const [key, field] of Object.entries(shape)) {
    const broken = zodNearValid(field, join(path, key));
    if (broken)
      out.push(
        fc.tuple(base, broken).map(([value, m]) => ({ value: { ...value, [key]: m.value }, how: m.how })),
      );
  }
  return out;
}

function unionMutations(
  schema: z.ZodDiscriminatedUnion<string, z.AnyZodObject[]>,
  path: string,
): fc.Arbitrary<NearValid>[] {
  const key = schema.discriminator;
  const base = zodArbitrary(schema) as fc.Arbitrary<Record<string, unknown>>;
  const known = new Set<unknown>(schema.options.map((o) => (o.shape[key] as z.ZodLiteral<unknown>).value));
  const unknown = ['unknown', '', 'SEND', 'send ', 'toString', '__proto__', 0, null].filter(
    (v) => !known.has(v),
  );
  const unknownMember = fc.tuple(base, fc.constantFrom(...unknown)).map(([value, name]) => ({
    value: { ...value, [key]: name },
    how: at(join(path, key), `unknown member ${JSON.stringify(name)}`),
  }));
  // One member, broken in one place (its discriminator kept, so that member is the one judged).
  const brokenMember = fc.oneof(
    ...schema.options.map((option) => fc.oneof(...objectMutations(option, path).slice(1))),
  );
  // Weighted towards the members: that is where most of the contract's rules are.
  return [
    fc.oneof(
      { weight: 1, arbitrary: wrongType(schema, path) },
      { weight: 1, arbitrary: unknownMember },
      { weight: 6, arbitrary: brokenMember },
    ),
  ];
}

function arrayMutations(schema: z.ZodArray<z.ZodTypeAny>, path: string): fc.Arbitrary<NearValid>[] {
  const { min, max } = arrayBounds(schema);
  const element = zodArbitrary(schema.element);
  const out = [wrongType(schema, path)];
  if (Number.isFinite(max) && max <= 1000)
    out.push(
      fc.array(element, { minLength: max + 1, maxLength: max + 1 }).map((value) => ({
        value,
        how: at(path, `${max + 1} items (max ${max})`),
      })),
    );
  if (min > 0)
    out.push(
      fc.array(element, { minLength: min - 1, maxLength: min - 1 }).map((value) => ({
        value,
        how: at(path, `${min - 1} items (min ${min})`),
      })),
    );
  const broken = zodNearValid(schema.element, join(path, 0));
  if (broken && max >= 1)
    out.push(
      fc
        .tuple(
          fc.array(element, { minLength: Math.max(0, min - 1), maxLength: Math.min(max - 1, min + 2) }),
          broken,
        )
        .map(([value, m]) => ({ value: [m.value, ...value], how: m.how })),
    );
  return out;
}
