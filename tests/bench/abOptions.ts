import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The value after `--name` on the command line, if given. */
export function benchOption(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

/** What an A/B bench of two web builds takes: `--a <dist>`, `--b <dist>`, `--runs`, `--rate`. */
export interface AbOptions {
  /** The build compared (`--a`, or WEBBRIDGE_BENCH_WEB_DIST_A) and the one measured (`--b`, default web/dist). */
  readonly builds: { readonly a: string | undefined; readonly b: string };
  readonly runs: number;
  /** A fixed CPU throttling rate (no calibration). */
  readonly rate: number;
}

/** The A/B options of this process's command line, with `runs` defaulting to `defaultRuns`. */
export function abOptions(defaultRuns: number): AbOptions {
  const webDist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
  return {
    builds: {
      a: benchOption('--a') ?? process.env.WEBBRIDGE_BENCH_WEB_DIST_A,
      b: benchOption('--b') ?? webDist,
    },
    runs: Number(benchOption('--runs') ?? defaultRuns),
    rate: Number(benchOption('--rate') ?? 6),
  };
}
