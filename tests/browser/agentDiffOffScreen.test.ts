import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentFileCommand } from '../support/acp/fakeAgentCommand';
import { edit, say, turn } from '../support/acp/fakeSteps';
import { act, getState, guardOf, waitFor } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, PHONE } from './browserHarness';

/**
 * A long diff's rows off the screen cost the page nothing but their style (issue 27): on the
 * calibrated slow phone each slice of rows drawn below the screen was laid out and painted with
 * the rest (0.5–1 s tasks on "show more", tests/bench/agentDiffSlowPhone.ts). The browser must
 * skip the rows it does not show, and the approval's buttons under them must still take a tap.
 */

const LINES = 400;
const OLD = Array.from(
  { length: LINES },
  (_, i) => `  const value${i} = compute(${i}, 'entry ${i}', options.scale);`,
);
const NEW = OLD.map((line, i) => (i % 10 === 5 ? line.replace('scale', 'factor') : line));

/** Records how many rows each message from a worker carried (a page script, before the app's). */
const WORKER_ANSWERS = `(() => {
  window.__workerRows = [];
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(url, options) {
      super(url, options);
      this.addEventListener('message', ({ data }) => {
        const rows = data?.rows ?? data?.diff?.rows;
        if (Array.isArray(rows)) window.__workerRows.push(rows.length);
      });
    }
  };
})()`;

describe('a long diff on a phone (Chromium at 390×844)', () => {
  let browser: Browser;
  let h: TestHost;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    assertWebBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-diff-off-screen-'));
    mkdirSync(join(dataDir, 'workspace', 'src'), { recursive: true });
    const file = join(realpathSync(join(dataDir, 'workspace')), 'src', 'values.ts');
    const oldText = `${OLD.join('\n')}\n`;
    writeFileSync(file, oldText);
    const command = fakeAgentFileCommand(join(dataDir, 'agent-script.json'), {
      turns: [
        turn(...edit({ path: file, oldText, newText: `${NEW.join('\n')}\n`, toolCallId: 'e' }), say('Done.')),
      ],
    });
    [browser, h] = await Promise.all([
      launchBrowser(),
      startTestHost({
        dataDir,
        agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
      }),
    ]);
    // Counts the rows in each answer of the page's diff worker (before the page's scripts).
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
    await context.addInitScript(WORKER_ANSWERS);
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.goto(`http://127.0.0.1:${h.port}/#code=${TEST_CODE}`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('gets the rows from the worker in small messages, skips those below the screen, and Allow once under them still takes the tap', async () => {
    await page.locator('.badge[data-status="live"]').waitFor();
    await act(h, { action: 'newConversation', agentId: 'fake' });
    await act(h, { action: 'send', text: 'rename scale', ...guardOf(await getState(h)) });
    const card = page.locator('.message .approval');
    await card.locator('.diff-lines').waitFor({ timeout: 30_000 });
    await expect.poll(() => card.locator('.diff-line').count(), { timeout: 30_000 }).toBe(120);
    // The worker sends rows only as far as the card draws them: two messages for the first 120
    // (the page had read all 360 rows of the change before drawing any).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = (await page.evaluate('window.__workerRows')) as number[];
    expect(before.reduce((sum, rows) => sum + rows, 0)).toBe(200);
    await card.locator('.diff-more').click();
    // 40 changes with 3 lines around each, 120 rows at first and 200 more on the tap.
    await expect.poll(() => card.locator('.diff-line').count(), { timeout: 30_000 }).toBe(320);
    await card.locator('.diff-line').first().scrollIntoViewIfNeeded();
    // A string: this package is type-checked without the DOM's names.
    const skipped = (await page.evaluate(`(async () => {
      // Which rows are skipped is decided in the frames after a scroll.
      for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
      const rows = [...document.querySelectorAll('.message .approval .diff-line')];
      const height = window.innerHeight;
      // A skipped row's contents are hidden from this check (the row's own box stays).
      const visible = (row) => row.firstElementChild?.checkVisibility({ contentVisibilityAuto: true }) ?? false;
      return {
        // Far below the screen (past the half screen the browser draws ahead and the group of
        // rows that reaches into it, about two screens): the browser has not laid them out.
        far: rows.filter((row) => row.getBoundingClientRect().top > 4 * height).map(visible),
        shown: rows
          .filter((row) => {
            const { top, bottom } = row.getBoundingClientRect();
            return top >= 0 && bottom <= height;
          })
          .map(visible),
      };
    })()`)) as { far: boolean[]; shown: boolean[] };
    expect(skipped.far.length).toBeGreaterThan(100);
    expect(skipped.far.filter((visible) => visible)).toEqual([]);
    expect(skipped.shown.length).toBeGreaterThan(5);
    expect(skipped.shown.filter((visible) => !visible)).toEqual([]);

    // The rows came from the worker in small messages: taking one off the queue is a task of
    // the page's main thread, and the answer of a 5,000-line file in one message was 0.2 s of
    // one at 6x (agentDiffSlowPhone.ts).
    const answers = (await page.evaluate('window.__workerRows')) as number[];
    expect(answers.reduce((sum, rows) => sum + rows, 0)).toBeGreaterThanOrEqual(320);
    expect(Math.max(...answers)).toBeLessThanOrEqual(100);

    // Under 320 rows drawn at their guessed heights, the buttons are reached and tapped once.
    await card.getByRole('button', { name: 'Allow once' }).click();
    await waitFor(async () => ((await getState(h)).approvals.length === 0 ? true : undefined), 20_000);
    expect(problems).toEqual([]);
  }, 90_000);
});
