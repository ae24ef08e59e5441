/**
 * A phone of a fixed speed on any machine: Lighthouse's BenchmarkIndex, run in a page, and the
 * CPU throttling rate that brings this machine's Chromium down to a target index (issue 29).
 *
 * The method is Lighthouse's `computeBenchmarkIndex` (GoogleChrome/lighthouse,
 * core/lib/page-functions.js, Apache License 2.0; Chrome DevTools' CPU calibration in
 * front_end/panels/mobile_throttling/CalibrationController.ts runs the same function): the mean
 * of two half-second loops, a GC-heavy one that builds a 10,000-character string and a GC-free
 * one that copies 100,000 integers between two arrays, each counted as iterations per second
 * divided by 10. Reimplemented here from that description; higher is faster.
 */

/**
 * The index the emulated phone scores: inside Lighthouse's "Low-End Mobile" class. Lighthouse's
 * throttling documentation (docs/throttling.md, "Benchmarking CPU Power", as of Chrome m86)
 * gives the classes as High-End Desktop 1500–2000, Low-End Desktop 1000–1500, High-End Mobile
 * 800–1200, Mid-Tier Mobile 125–800 (Moto G4) and Low-End Mobile < 125 (Samsung Galaxy J2).
 * 100 is a low-end Android, a round figure a quarter below that class's top.
 */
export const LOW_END_ANDROID_INDEX = 100;

/** Page-side, as text: Lighthouse's computeBenchmarkIndex, returning the index (a number). */
export const BENCHMARK_INDEX = `(() => {
  // Strings of 10,000 characters per second / 10 (GC-heavy).
  const withGc = () => {
    const start = Date.now();
    let iterations = 0;
    while (Date.now() - start < 500) {
      let s = '';
      for (let j = 0; j < 10000; j++) s += 'a';
      if (s.length === 1) throw new Error('never: keeps the loop from being optimised away');
      iterations++;
    }
    return Math.round(iterations / 10 / ((Date.now() - start) / 1000));
  };
  // Copies of 100,000 integers per second / 10 (no GC). The clock is read every tenth
  // iteration only, as Lighthouse does.
  const withoutGc = () => {
    const a = [];
    const b = [];
    for (let i = 0; i < 100000; i++) a[i] = b[i] = i;
    const start = Date.now();
    let iterations = 0;
    while (iterations % 10 !== 0 || Date.now() - start < 500) {
      const from = iterations % 2 === 0 ? a : b;
      const to = iterations % 2 === 0 ? b : a;
      for (let j = 0; j < from.length; j++) to[j] = from[j];
      iterations++;
    }
    return Math.round(iterations / 10 / ((Date.now() - start) / 1000));
  };
  return (withGc() + withoutGc()) / 2;
})()`;

/** What a calibration found. */
export interface Calibration {
  /** This machine's index, unthrottled (the median of three). */
  readonly machineIndex: number;
  /** The throttling rate chosen. */
  readonly rate: number;
  /** The index measured at that rate (the verification). */
  readonly emulatedIndex: number;
  /** Every rate tried and the index it gave, in order. */
  readonly steps: readonly { rate: number; index: number }[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Finds the rate at which `indexAt(rate)` (the page's BenchmarkIndex under that CPU throttling)
 * is `target`, within 15 %. The index falls with the rate but not as 1 / rate: on the 2-core
 * machine of issue 29, 8.5× took 851 to 358, not 100 (Chromium's throttling suspends the main
 * thread in slices, and a loaded machine lends or takes time of its own). So: the machine's
 * index at rate 1 (the median of three), a first guess of machine / target, then secant steps on
 * log(index) against log(rate) through the two latest measurements (a slope of −1 when they
 * disagree on the direction), each step at most 4× from the last, for at most five steps. The
 * rate whose index came nearest the target is chosen; its measurement is the verification.
 * Each measurement takes ~1 s of wall time whatever the rate.
 */
export async function calibrateCpu(
  indexAt: (rate: number) => Promise<number>,
  target: number = LOW_END_ANDROID_INDEX,
): Promise<Calibration> {
  const steps: { rate: number; index: number }[] = [];
  const at = async (rate: number) => {
    const index = await indexAt(rate);
    steps.push({ rate, index });
    return index;
  };
  const machineIndex = median([await at(1), await at(1), await at(1)]);
  const tried: { rate: number; index: number }[] = [{ rate: 1, index: machineIndex }];
  let rate = Math.max(1, machineIndex / target);
  for (let step = 0; step < 5; step++) {
    rate = Number(rate.toFixed(2));
    const index = await at(rate);
    tried.push({ rate, index });
    if (Math.abs(index - target) <= 0.15 * target) break;
    const [a, b] = tried.slice(-2) as [{ rate: number; index: number }, { rate: number; index: number }];
    const measured = Math.log(b.index / a.index) / Math.log(b.rate / a.rate);
    const slope = Number.isFinite(measured) && measured < -0.05 ? measured : -1;
    const next = b.rate * (target / b.index) ** (1 / slope);
    rate = Math.min(4 * b.rate, Math.max(b.rate / 4, Math.max(1, next)));
  }
  const best = tried
    .slice(1)
    .reduce((x, y) => (Math.abs(y.index - target) < Math.abs(x.index - target) ? y : x));
  return { machineIndex, rate: best.rate, emulatedIndex: best.index, steps };
}
