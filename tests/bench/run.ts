/**
 * Runs every benchmark, one process each (so that one's memory does not colour another's), and
 * prints their tables. Run: node --expose-gc --import tsx tests/bench/run.ts
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCHMARKS = [
  'bytesPerWord',
  'latency',
  'streams',
  'reducer',
  'stateCheck',
  'openClose',
  'writeFloor',
  'resumeRing',
  'stayingCurrent',
  'slowPhone',
  'proxyDelay',
];

console.log(`webbridge benchmarks — ${new Date().toISOString()}, Node ${process.version}`);
let failed = 0;
for (const name of BENCHMARKS) {
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', import.meta.resolve('tsx'), script],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) {
    failed++;
    console.error(`${name} failed (exit ${result.status ?? result.signal})`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
