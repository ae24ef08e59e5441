/**
 * Rewrites JSON Schema forms that OpenAPI 3.0 does not have into its own. The zod converter
 * behind ts-rest writes `exclusiveMinimum: 0` (a number, as in OpenAPI 3.1) for `.positive()`,
 * where 3.0 wants `minimum: 0, exclusiveMinimum: true`: Redocly's `struct` rule rejects the
 * number, and 3.0 tools read it as nonsense.
 */
export function toOpenApi30(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) toOpenApi30(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = schema[exclusive];
    if (typeof value === 'number') {
      schema[bound] = value;
      schema[exclusive] = true;
    }
  }
  for (const value of Object.values(schema)) toOpenApi30(value);
}
