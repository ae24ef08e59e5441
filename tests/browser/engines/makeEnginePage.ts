import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineName, EnginePage, TargetLike, Viewport } from './EnginePage';
import {
  actionable,
  clickable,
  counts,
  fillScript,
  firstOf,
  READ_PROBLEMS,
  RECORD_PROBLEMS,
  textOf,
  toTarget,
} from './pageScripts';

/** Where screenshots go (git-ignored), as the Chromium harness's `shot`. */
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.artifacts');
/** How long a step waits for its element, as the Chromium harness's default timeout. */
const STEP_TIMEOUT_MS = 8000;

/**
 * What one engine's driver must do natively; everything else (finding elements, waiting,
 * reading text, filling a field) is page-side script, the same in every engine.
 * `H` is the driver's element handle.
 */
export interface EngineDriver<H> {
  readonly engine: EngineName;
  evaluate<T>(expression: string): Promise<T>;
  /** The element an expression evaluates to, as a handle the driver can act on (null if none). */
  element(expression: string): Promise<H | null>;
  click(element: H): Promise<void>;
  press(element: H, key: 'Enter' | 'Escape'): Promise<void>;
  type(element: H, text: string): Promise<void>;
  upload(element: H, paths: readonly string[]): Promise<void>;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  url(): Promise<string>;
  setViewport(size: Viewport): Promise<void>;
  screenshot(): Promise<Uint8Array>;
  /** Grants `origin` the notification permission; absent where the protocol cannot. */
  grantNotifications?: (origin: string) => Promise<void>;
  close(): Promise<void>;
  /** Errors the engine itself reported (console errors, page errors), where it reports any. */
  readonly reported: readonly string[];
}

/**
 * Polls `check` every 50 ms until it returns a value other than undefined, or fails naming
 * `what`. A check that throws is tried again: the page may be navigating (the offline page
 * reloading into the app destroys the context a script ran in); the last error is reported.
 */
async function poll<T>(what: string, timeout: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeout} ms waiting for ${what}`, { cause: lastError });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Names a target in an error message. */
function describe(target: TargetLike): string {
  const { css, hasText } = toTarget(target);
  return hasText === undefined ? css : `${css} with text "${hasText}"`;
}

/** Builds an {@link EnginePage} over one engine's native driver. */
export function makeEnginePage<H>(driver: EngineDriver<H>): EnginePage {
  const ready = async (target: TargetLike): Promise<H> =>
    poll(`${describe(target)} to be visible and enabled`, STEP_TIMEOUT_MS, async () => {
      return (await driver.element(actionable(target))) ?? undefined;
    });
  const recordProblems = () => driver.evaluate<number>(RECORD_PROBLEMS);
  return {
    engine: driver.engine,
    async problems() {
      const inPage = await driver.evaluate<string[]>(READ_PROBLEMS).catch(() => []);
      return [...driver.reported, ...inPage];
    },
    async goto(url) {
      await driver.goto(url);
      await recordProblems();
    },
    async reload() {
      await driver.reload();
      await recordProblems();
    },
    url: () => driver.url(),
    setViewport: (size) => driver.setViewport(size),
    async fill(target, text) {
      await ready(target);
      if (!(await driver.evaluate<boolean>(fillScript(target, text))))
        throw new Error(`could not fill ${describe(target)}`);
    },
    async click(target) {
      const element = await poll(`${describe(target)} to be clickable`, STEP_TIMEOUT_MS, async () => {
        return (await driver.element(clickable(target))) ?? undefined;
      });
      await driver.click(element);
    },
    async press(target, key) {
      await driver.press(await ready(target), key);
    },
    async type(target, text) {
      await driver.type(await ready(target), text);
    },
    async upload(target, paths) {
      const input = await poll(`${describe(target)} to exist`, STEP_TIMEOUT_MS, async () => {
        return (await driver.element(firstOf(target))) ?? undefined;
      });
      await driver.upload(input, paths);
    },
    evaluate: (expression) => driver.evaluate(expression),
    async waitFor(target, options = {}) {
      const { timeout = STEP_TIMEOUT_MS, gone = false } = options;
      await poll(`${describe(target)} to ${gone ? 'go' : 'show'}`, timeout, async () => {
        const [, shown] = await driver.evaluate<[number, number]>(counts(target));
        return (gone ? shown === 0 : shown > 0) || undefined;
      });
    },
    text: (target) => driver.evaluate<string>(textOf(target)),
    async count(target) {
      const [all] = await driver.evaluate<[number, number]>(counts(target));
      return all;
    },
    async grantNotifications() {
      if (!driver.grantNotifications) throw new Error(`${driver.engine}'s driver cannot grant permissions`);
      await driver.grantNotifications(new URL(await driver.url()).origin);
    },
    async screenshot(name) {
      mkdirSync(ARTIFACTS, { recursive: true });
      // Two frames, so what the DOM holds has been painted: WebKit's screenshot is of the last
      // painted frame, which was a reply still streaming and an image not yet drawn.
      await driver.evaluate(
        'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(0))))',
      );
      writeFileSync(join(ARTIFACTS, `${name}.png`), await driver.screenshot());
    },
    close: () => driver.close(),
  };
}
