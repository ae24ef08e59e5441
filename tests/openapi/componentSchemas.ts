import type { Oas3Schema } from '@redocly/openapi-core';
import { initContract } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import {
  actionResponseSchema,
  actionSchema,
  approvalSchema,
  attachmentSchema,
  conversationSummarySchema,
  localeSchema,
  mediaRefSchema,
  messageRoleSchema,
  messageSchema,
  messageStatusSchema,
  modelSchema,
  problemSchema,
  projectSchema,
  runStatusSchema,
  sessionIdentitySchema,
  sessionMismatchSchema,
  settingsSchema,
  snapshotSchema,
  toolCallSchema,
  toolSchema,
  uploadResponseSchema,
  validationIssueSchema,
  wireAttachmentSchema,
  workspaceSchema,
} from '@webbridge/contract';
import type { z } from 'zod';

const pascal = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/**
 * The schemas the document names, under the contract's own type names (`Snapshot`, `Message`,
 * `Attachment` is the wire one with its media id, `HostAttachment` the one an upload returns),
 * plus one component per action (`SendAction`) and per action result (`SendActionResponse`),
 * derived from the unions so a new action is named without an edit here.
 */
function namedZodSchemas(): ReadonlyMap<string, z.ZodTypeAny> {
  const named = new Map<string, z.ZodTypeAny>([
    ['Locale', localeSchema],
    ['Snapshot', snapshotSchema],
    ['SessionIdentity', sessionIdentitySchema],
    ['ConversationSummary', conversationSummarySchema],
    ['Message', messageSchema],
    ['MessageRole', messageRoleSchema],
    ['MessageStatus', messageStatusSchema],
    ['ToolCall', toolCallSchema],
    ['Attachment', wireAttachmentSchema],
    ['HostAttachment', attachmentSchema],
    ['MediaRef', mediaRefSchema],
    ['RunStatus', runStatusSchema],
    ['Project', projectSchema],
    ['Workspace', workspaceSchema],
    ['Model', modelSchema],
    ['Tool', toolSchema],
    ['Approval', approvalSchema],
    ['Settings', settingsSchema],
    ['Action', actionSchema],
    ['ActionResponse', actionResponseSchema],
    ['UploadResponse', uploadResponseSchema],
    ['Problem', problemSchema],
    ['ValidationIssue', validationIssueSchema],
    ['SessionMismatch', sessionMismatchSchema],
  ]);
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
  return new Map(
    [...named.keys()].map((name) => {
      const path = rendered.paths[`/${name}`];
      if (path === undefined) throw new Error(`no schema rendered for ${name}`);
      return [name, path.get.responses[200].content['application/json'].schema];
    }),
  );
}
