import type { Oas3Schema } from '@redocly/openapi-core';
import { initContract } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import * as exported from '@webbridge/contract';
import { actionResponseSchema, actionSchema } from '@webbridge/contract';
import { z } from 'zod';

const pascal = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/**
 * Where a schema's own name would mislead, the contract's type name: the snapshot's attachments
 * carry a media id (`Attachment`), the one an upload returns does not yet (`HostAttachment`).
 */
const RENAMED: Readonly<Record<string, string>> = {
  wireAttachmentSchema: 'Attachment',
  attachmentSchema: 'HostAttachment',
};

/**
 * Every zod schema the contract exports (`fooSchema` is named `Foo`), plus one component per
 * action (`SendAction`) and per action result (`SendActionResponse`): all derived, so a schema
 * or an action added to the contract is named without an edit here. Those the document does
 * not use are dropped by `nameSchemas`.
 */
function namedZodSchemas(): ReadonlyMap<string, z.ZodTypeAny> {
  const named = new Map<string, z.ZodTypeAny>();
  for (const [key, value] of Object.entries(exported)) {
    if (key.endsWith('Schema') && value instanceof z.ZodType) {
      named.set(RENAMED[key] ?? pascal(key.slice(0, -'Schema'.length)), value);
    }
  }
  for (const option of actionSchema.options) named.set(`${pascal(option.shape.action.value)}Action`, option);
  for (const option of actionResponseSchema.options) {
    named.set(`${pascal(option.shape.action.value)}ActionResponse`, option);
  }
  return named;
}

/**
 * Each named schema as the OpenAPI generator renders it. They go through the same converter
 * as the routes (one throwaway route per schema), so a copy inside a route is byte-identical
 * to its named version and can be recognised.
 */
export function componentSchemas(): ReadonlyMap<string, Oas3Schema> {
  const named = namedZodSchemas();
  const c = initContract();
  const routes = Object.fromEntries(
    [...named].map(([name, schema]) => [
      name,
      { method: 'GET' as const, path: `/${name}`, responses: { 200: schema } },
    ]),
  );
  const rendered = JSON.parse(
    JSON.stringify(generateOpenApi(c.router(routes), { info: { title: 'schemas', version: '0' } })),
  ) as {
    paths: Record<
      string,
      { get: { responses: { 200: { content: { 'application/json': { schema: Oas3Schema } } } } } }
    >;
  };
  const schemas = new Map<string, Oas3Schema>();
  for (const name of named.keys()) {
    const schema = rendered.paths[`/${name}`]?.get.responses[200].content['application/json'].schema;
    if (schema === undefined) throw new Error(`no schema rendered for ${name}`);
    // Only objects, unions and enums: a name for a bare string would swallow every string, and
    // tuples, which the converter cannot render, come out as `{}` (anything).
    if (schema.properties || schema.oneOf || schema.anyOf || schema.allOf || schema.enum)
      schemas.set(name, schema);
  }
  return schemas;
}
