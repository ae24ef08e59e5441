import {
  createConfig,
  lintFromString,
  type NormalizedProblem,
  type RawUniversalConfig,
} from '@redocly/openapi-core';

/**
 * Lints an OpenAPI document with Redocly (the library behind Redocly CLI), by default with its
 * `recommended` ruleset, as `npx @redocly/cli lint` does without a config file.
 */
export async function lintOpenApi(
  doc: object,
  config: RawUniversalConfig = { extends: ['recommended'] },
): Promise<NormalizedProblem[]> {
  return lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: 'openapi.json',
    config: await createConfig(config),
  });
}

/** One line per problem: severity, rule, message and where. */
export function describeProblems(problems: readonly NormalizedProblem[]): string[] {
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
}
