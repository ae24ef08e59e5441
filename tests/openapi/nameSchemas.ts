import type { Oas3Definition, Oas3Schema } from '@redocly/openapi-core';

/** A JSON object, as the document's nodes are walked. */
type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `$ref` of a component schema. */
export function schemaRef(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * Moves named schemas into `components.schemas` and replaces every copy of them in the document
 * with a `$ref`; named schemas the document does not use are left out. ts-rest inlines every schema where it is used, so the problem body appeared
 * 30 times and each action variant was an anonymous member of a `oneOf`: generators had
 * nothing to name their types after, and a discriminator cannot select an inline member.
 *
 * A copy is recognised by its JSON being identical to the named schema's, both produced by
 * the same converter from the same zod schema. Two names with the same JSON would be
 * ambiguous, so they are refused. Discriminated unions whose members all became references get
 * an explicit `mapping` (the implicit one would look for components named `send`, `stop`, ...).
 */
export function nameSchemas(doc: Oas3Definition, named: ReadonlyMap<string, Oas3Schema>): void {
  // Names by JSON; two names with the same JSON are ambiguous, which matters only where used.
  const byShape = new Map<string, string[]>();
  for (const [name, schema] of named) {
    const shape = JSON.stringify(schema);
    byShape.set(shape, [...(byShape.get(shape) ?? []), name]);
  }
  const replace = (node: unknown, isNamedRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => replace(item, false));
    if (!isObject(node)) return node;
    const names = isNamedRoot ? undefined : byShape.get(JSON.stringify(node));
    if (names !== undefined) {
      const [name, ...others] = names;
      if (name === undefined || others.length > 0) throw new Error(`ambiguous schema: ${names.join(' or ')}`);
      return schemaRef(name);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replace(value, false)]));
  };
  const all: Record<string, Oas3Schema> = {};
  for (const [name, schema] of named) all[name] = replace(schema, true) as Oas3Schema;
  if (doc.paths !== undefined) doc.paths = replace(doc.paths, false) as NonNullable<Oas3Definition['paths']>;
  // Only what the routes reach, directly or through other named schemas.
  const schemas: Record<string, Oas3Schema> = {};
  const pending = refsIn(doc.paths);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const schema = all[name];
    if (schema === undefined || name in schemas) continue;
    schemas[name] = schema;
    pending.push(...refsIn(schema));
  }
  for (const schema of Object.values(schemas)) addDiscriminatorMapping(schema, schemas);
  // In the contract's order, not the order they were reached in.
  const sorted: Record<string, Oas3Schema> = {};
  for (const name of named.keys()) {
    const schema = schemas[name];
    if (schema !== undefined) sorted[name] = schema;
  }
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...sorted } };
}

/** The names of the component schemas referenced anywhere in a node. */
function refsIn(node: unknown): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) {
      const ref = value.$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
        names.push(ref.slice('#/components/schemas/'.length));
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(node);
  return names;
}

function addDiscriminatorMapping(schema: Oas3Schema, schemas: Readonly<Record<string, Oas3Schema>>): void {
  const propertyName = schema.discriminator?.propertyName;
  if (propertyName === undefined || schema.oneOf === undefined) return;
  const mapping: Record<string, string> = {};
  for (const member of schema.oneOf) {
    const ref = member.$ref;
    const target = ref === undefined ? undefined : schemas[ref.replace('#/components/schemas/', '')];
    const tag = target?.properties?.[propertyName];
    const value = tag !== undefined && 'enum' in tag ? tag.enum?.[0] : undefined;
    // One inline or untagged member and no mapping can be right: leave the union as it was.
    if (ref === undefined || typeof value !== 'string') return;
    mapping[value] = ref;
  }
  schema.discriminator = { propertyName, mapping };
}
