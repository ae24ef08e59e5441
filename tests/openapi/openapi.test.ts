import { readFileSync } from 'node:fs';
import { ACTION_NAMES, contract } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './generateOpenApi';
import { describeProblems, lintOpenApi } from './lintOpenApi';
import { OPENAPI_FILE } from './thirdPartyTypes';

const committed = () => JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as object;

/**
 * Warnings of Redocly's recommended rules that stay, each for a reason. `info-license`: the
 * project has no license yet, and the document must not invent one.
 */
const ACCEPTED_WARNINGS = ['info-license'];

describe('docs/openapi.json', () => {
  it('is the document derived from the contract (run `pnpm docs:openapi` after changing it)', () => {
    expect(committed()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('documents every route and every action', () => {
    const text = JSON.stringify(openApiDocument());
    for (const route of Object.values(contract)) expect(text).toContain(`"${route.path}"`);
    for (const action of ACTION_NAMES) expect(text).toContain(`"${action}"`);
  });

  it("passes Redocly's recommended rules: no error, and only the warnings accepted above", async () => {
    const problems = await lintOpenApi(committed());
    expect(describeProblems(problems.filter((p) => p.severity === 'error'))).toEqual([]);
    const warnings = problems.filter((p) => p.severity === 'warn' && !ACCEPTED_WARNINGS.includes(p.ruleId));
    expect(describeProblems(warnings)).toEqual([]);
  });
});
