import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailures, type FuzzSetup, startFuzzHost } from './fuzzHost';
import { STEP } from './plans';

/** Change with FUZZ_SEED to explore; a failure prints the seed and path that reproduce it. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

describe('fuzzing from the contract against a real host', () => {
  let setup: FuzzSetup;
  beforeAll(async () => {
    setup = await startFuzzHost();
  });
  afterAll(() => setup.close());

  it('answers valid, near-valid and malformed requests on all six routes within the protocol', async () => {
    const started = performance.now();
    const { fuzzer } = setup;
    await fc.assert(
      fc.asyncProperty(fc.array(STEP, { minLength: 10, maxLength: 60 }), async (steps) => {
        const before = fuzzer.failures.length;
        for (const step of steps) await fuzzer.run(step);
        await fuzzer.alive();
        if (fuzzer.failures.length > before) throw new Error(describeFailures(fuzzer.failures.slice(before)));
      }),
      // Shrinking re-runs steps against the same (by then changed) host, so it is kept short.
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 45_000, markInterruptAsFailure: false },
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `contract fuzz: ${fuzzer.requests} requests (${fuzzer.applied} applied) in ${seconds.toFixed(1)} s, seed ${SEED}`,
    );
    expect(setup.logged.filter((line) => line.includes('unhandled'))).toEqual([]);
    // The mix must keep reaching the host's real behaviour, not only its refusals.
    expect(fuzzer.applied).toBeGreaterThan(fuzzer.requests / 20);
  }, 90_000);

  it('keeps every rule across a restart on the same data dir: a new instanceId, sessionRevision goes on', async () => {
    const { fuzzer } = setup;
    const before = fuzzer.failures.length;
    await setup.restart();
    for (const step of fc.sample(STEP, { seed: SEED + 1, numRuns: 300 })) await fuzzer.run(step);
    await fuzzer.alive();
    if (fuzzer.failures.length > before) throw new Error(describeFailures(fuzzer.failures.slice(before)));
  }, 60_000);
});
