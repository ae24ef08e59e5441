import { readFileSync } from 'node:fs';
import { ACTION_NAMES, contract } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './generateOpenApi';

describe('docs/openapi.json', () => {
  it('is the document derived from the contract (run `pnpm docs:openapi` after changing it)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('documents every route and every action', () => {
    const text = JSON.stringify(openApiDocument());
    for (const route of Object.values(contract)) expect(text).toContain(`"${route.path}"`);
    for (const action of ACTION_NAMES) expect(text).toContain(`"${action}"`);
  });
});
