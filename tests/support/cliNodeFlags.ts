import { readFileSync } from 'node:fs';

/**
 * The Node flags the `webbridge` CLI runs with: those of its source's shebang
 * (`#!/usr/bin/env -S node --flag…`). The benchmarks give them to their host; a test keeps
 * `pnpm start` in step.
 */
export function cliNodeFlags(): string[] {
  const source = readFileSync(new URL('../../host/src/cli.ts', import.meta.url), 'utf8');
  return source
    .split('\n', 1)[0]!
    .split(' ')
    .filter((word) => word.startsWith('--'));
}
