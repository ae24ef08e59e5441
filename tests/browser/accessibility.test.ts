import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, DESKTOP, launchBrowser, PHONE, shot } from './browserHarness';
import { LONG_REPLY_PROMPT, PACED_MODEL, scriptedModels, seedConversation } from './scriptedModel';

// axe-core, the engine behind most accessibility checkers, run in Chromium on every screen a
// person meets, in both colour schemes and on both screen sizes. Only serious and critical
// findings fail the test (moderate ones, like "content outside a landmark", are advice).

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeNode {
  readonly target: readonly string[];
  readonly failureSummary?: string;
}
interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly AxeNode[];
}

/** Injects axe (the page's CSP is bypassed for this context only) and returns what fails. */
async function audit(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  )) as AxeViolation[];
  const minor = violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical');
  if (minor.length > 0)
    console.info(`${where}, minor:`, minor.map((v) => `${v.id} (${v.impact})`).join(', '));
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${where}: ${v.id} (${v.impact}) ${node.target.join(' ')} — ${node.failureSummary ?? v.help}`,
      ),
    );
}

const SCREENS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;
const SCHEMES = ['light', 'dark'] as const;

describe('accessibility by axe-core in Chromium: 0 serious or critical findings', () => {
  let browser: Browser;
  let h: TestHost;

  const useModel = (modelId: string) =>
    h.host.controller.executor.run(() => h.host.controller.conversations.setModel(modelId));

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([
      launchBrowser(),
      startTestHost({ providers: [scriptedModels(40)], echoDelayMs: 10 }),
    ]);
    // Replies with lists, code and headings: highlighted code is checked for contrast too.
    await seedConversation(h.host, 5);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  for (const [screen, viewport] of SCREENS) {
    for (const scheme of SCHEMES) {
      it(`${screen}, ${scheme}: connection page, streaming chat, drawer, settings, approval, 409 confirmation`, async () => {
        const context = await browser.newContext({ viewport, colorScheme: scheme, bypassCSP: true });
        const page = await context.newPage();
        page.setDefaultTimeout(8000);
        const found: string[] = [];
        const check = async (state: string) => {
          found.push(...(await audit(page, `${state} (${screen}, ${scheme})`)));
          await shot(page, `a11y-${screen}-${scheme}-${state}`);
        };
        try {
          await page.goto(`${h.url}/`);
          await page.locator('form.connect-card').waitFor();
          await check('connect');

          // A new load (the same URL with a fragment would only change the hash).
          await page.goto('about:blank');
          await page.goto(`${h.url}/#code=${TEST_CODE}`);
          await page.locator('.badge[data-status="live"]').waitFor();
          await useModel(PACED_MODEL);
          const box = page.getByRole('textbox', { name: 'Message' });
          await box.fill(LONG_REPLY_PROMPT);
          await box.press('Enter');
          await page.locator('.message-assistant.status-streaming pre').waitFor({ timeout: 15_000 });
          await check('streaming');
          await page.keyboard.press('Escape');
          await expect.poll(async () => (await getState(h)).conversations.run.state).toBe('idle');

          await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
          await check('shortcuts');
          await page.keyboard.press('Escape');

          await page.getByRole('button', { name: 'Find in this conversation' }).click();
          await page.locator('.find-field').fill('plan');
          await page.locator('.find-count', { hasText: 'of' }).waitFor();
          await check('find');
          await page.keyboard.press('Escape');

          if (screen === 'phone') {
            await page.getByRole('button', { name: 'Open menu' }).click();
            await page.waitForTimeout(300);
            await check('drawer');
            // Each disclosure shows that it opens: a phone's summary is a flex row (44 px), which
            // drops the browser's own marker, and Tools, Settings and Devices showed none.
            const markers = (await page.evaluate(
              "[...document.querySelectorAll('summary')].filter((s) => s.getClientRects().length > 0).map((s) => [s.textContent.trim(), s.parentElement.open, getComputedStyle(s, '::before').content])",
            )) as [string, boolean, string][];
            expect(markers.length).toBeGreaterThan(2);
            expect(markers.filter(([, open, content]) => content !== (open ? '"▾"' : '"▸"'))).toEqual([]);
          }
          await page.getByText('Settings', { exact: true }).click();
          await check('settings');
          await page.getByText('Settings', { exact: true }).click();
          if (screen === 'phone') await page.getByRole('button', { name: 'Close menu' }).first().click();

          await useModel('echo');
          await box.fill('/tool write_file {"path":"a11y.txt","content":"x"}');
          await box.press('Enter');
          const approval = page.locator('.message-assistant .approval');
          await approval.waitFor();
          await check('approval');
          await approval.getByRole('button', { name: 'Deny' }).click();
          await approval.waitFor({ state: 'detached' });

          // The host moves to another conversation while the send is on its way: 409.
          const before = await getState(h);
          const other = (await act(h, { action: 'newConversation', title: `Elsewhere ${screen} ${scheme}` }))
            .conversationId as string;
          await act(h, { action: 'selectConversation', conversationId: before.conversationId });
          await page
            .getByRole('heading', {
              level: 1,
              name: before.conversations.list.find((c) => c.id === before.conversationId)?.title ?? '',
            })
            .waitFor();
          let switched = false;
          await page.route('**/api/action', async (route) => {
            if (!switched && route.request().postDataJSON()?.action === 'send') {
              switched = true;
              await act(h, { action: 'selectConversation', conversationId: other });
            }
            await route.continue();
          });
          await box.fill('where does this go?');
          await box.press('Enter');
          const dialog = page.getByRole('alertdialog');
          await dialog.waitFor();
          await check('confirm-409');
          await dialog.getByRole('button', { name: 'Keep editing' }).click();
          await page.unroute('**/api/action');
          await act(h, { action: 'selectConversation', conversationId: before.conversationId });
        } finally {
          await context.close();
        }
        expect(found).toEqual([]);
      }, 60_000);
    }
  }
});
