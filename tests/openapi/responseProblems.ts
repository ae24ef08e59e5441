import type { Oas3Definition, Oas3MediaType, Oas3Operation, Oas3Response } from '@redocly/openapi-core';
import { lintOpenApi } from './lintOpenApi';

/** A response as a client saw it. */
export interface ObservedResponse {
  readonly method: string;
  /** The path without its query. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  /** The parsed body of a JSON response; ignored for other types. */
  readonly body?: unknown;
}

const RULE = 'no-invalid-media-type-examples';

function operationOf(doc: Oas3Definition, { method, path }: ObservedResponse): Oas3Operation | undefined {
  const item = doc.paths?.[path];
  if (item === undefined || '$ref' in item) return undefined;
  const key = method.toLowerCase();
  return key === 'get' || key === 'post' || key === 'head' ? item[key] : undefined;
}

function mediaTypeOf(response: Oas3Response, contentType: string): Oas3MediaType | undefined {
  const content = response.content ?? {};
  const [type] = contentType.split('/');
  return content[contentType] ?? content[`${type}/*`] ?? content['*/*'];
}

/**
 * What is wrong with these responses according to the document: an undocumented status or
 * content type, or a JSON body that does not match its schema. The bodies are checked by
 * Redocly's own validator: each becomes an example of its response in a copy of the document,
 * linted with `no-invalid-media-type-examples` and no properties beyond the schema's
 * (`allowAdditionalProperties: false`: a field the document does not declare is an error).
 */
export async function responseProblems(
  document: Oas3Definition,
  observed: readonly ObservedResponse[],
): Promise<string[]> {
  const doc = structuredClone(document);
  const problems: string[] = [];
  const labels = new Map<string, string>();
  observed.forEach((seen, index) => {
    const label = `${seen.method} ${seen.path} ${seen.status}`;
    const operation = operationOf(doc, seen);
    const responses = operation?.responses ?? {};
    const response =
      responses[String(seen.status)] ?? responses[`${String(seen.status)[0]}XX`] ?? responses.default;
    if (operation === undefined || response === undefined) {
      problems.push(`${label}: not in the document`);
      return;
    }
    const contentType = seen.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (seen.method === 'HEAD' || (contentType === '' && response.content === undefined)) return;
    const media = mediaTypeOf(response, contentType);
    if (media === undefined) {
      problems.push(`${label}: content type ${contentType || '(none)'} not in the document`);
      return;
    }
    if (!/[/+]json$/.test(contentType)) return;
    const name = `observed${index}`;
    labels.set(name, label);
    media.examples = { ...media.examples, [name]: { value: seen.body } };
  });
  const found = await lintOpenApi(doc, {
    rules: { [RULE]: { severity: 'error', allowAdditionalProperties: false } },
  });
  for (const problem of found) {
    if (problem.ruleId !== RULE) continue;
    const pointer = problem.location[0]?.pointer ?? '';
    const name = /\/examples\/(observed\d+)/.exec(pointer)?.[1];
    problems.push(`${(name && labels.get(name)) ?? 'the document'}: ${problem.message} (${pointer})`);
  }
  return problems;
}
