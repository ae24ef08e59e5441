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

/** The rate at which the least-squares line of log(index) on log(rate) through `points` gives `target`. */
function fittedRate(points: readonly { rate: number; index: number }[], target: number): number {
  const xs = points.map((p) => Math.log(p.rate));
  const ys = points.map((p) => Math.log(p.index));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += ((xs[i] ?? 0) - mx) * ((ys[i] ?? 0) - my);
    sxx += ((xs[i] ?? 0) - mx) ** 2;
  }
  // A line that does not fall (noise swamped the points) says nothing: assume 1 / rate.
  const slope = sxx > 0 && sxy / sxx < -0.05 ? sxy / sxx : -1;
  return Math.max(1, Math.exp(mx + (Math.log(target) - my) / slope));
}

/**
 * Finds the rate at which `indexAt(rate)` (the page's BenchmarkIndex under that CPU throttling)
 * is `target`. The index falls with the rate but not as 1 / rate: on the 2-core machine of
 * issue 29, 8.5× took 851 to 358, not 100 (Chromium's throttling suspends the main thread in
 * slices, and a loaded machine lends or takes time of its own), and single measurements there
 * were noisy enough to make step-by-step searches wander (54× scoring more than 43×). So: the
 * machine's index at rate 1 (the median of three); indexes at machine / target and at 0.6 and
 * 1.6 times that; the least-squares line of log(index) on log(rate) through all of them gives
 * the rate; the index measured there is the verification, and while it is more than 15 % off
 * (twice at most) it joins the points and the line is fitted again; the fitted rate whose
 * verification came nearest the target is chosen. Each measurement takes ~1 s
 * of wall time whatever the rate.
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
  const guess = Math.max(1, machineIndex / target);
  const points = [{ rate: 1, index: machineIndex }];
  for (const rate of [guess, 0.6 * guess, 1.6 * guess].map((r) => Number(Math.max(1, r).toFixed(2))))
    points.push({ rate, index: await at(rate) });
  // Of the fitted rates, the one whose verification came nearest the target.
  let best = { rate: 1, index: machineIndex };
  for (let fit = 0; fit < 3; fit++) {
    const rate = Number(fittedRate(points, target).toFixed(2));
    const index = await at(rate);
    if (fit === 0 || Math.abs(index - target) < Math.abs(best.index - target)) best = { rate, index };
    if (Math.abs(index - target) <= 0.15 * target) break;
    points.push({ rate, index });
  }
  return { machineIndex, rate: best.rate, emulatedIndex: best.index, steps };
}
