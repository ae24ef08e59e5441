import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { Snapshot } from '@webbridge/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import { plan, say, turn, update, wait } from '../support/acp/fakeSteps';
import { getState, waitFor } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, PHONE, shot } from './browserHarness';

/**
 * The chrome around an agent's chat on a phone (issue 27), in Chromium against a real host
 * driving the scripted fake ACP agent (a child process): a new conversation with a chosen agent and
 * project, the agent's mode switched from the top bar, its plan pinned above the composer and
 * updating, its slash commands offered on `/`, and a session started at the desk continued.
 * Screenshots at 390×844 in light and dark go to tests/.artifacts (agent-*.png).
 */

const MODES: acp.SessionModeState = {
  currentModeId: 'ask',
  availableModes: [
    { id: 'ask', name: 'Ask' },
    { id: 'accept-edits', name: 'Accept edits' },
    { id: 'plan', name: 'Plan' },
  ],
};

const MODEL: acp.SessionConfigOption = {
  type: 'select',
  id: 'model',
  name: 'Model',
  category: 'model',
  currentValue: 'small',
  options: [
    { value: 'small', name: 'Small' },
    // As long as opencode's names of its models ("provider/model"): the popover must still fit.
    { value: 'large', name: 'Local scripted model/Large model (offline)' },
  ],
};

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is (accessibility.test.ts's rule). */
async function seriousFindings(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  )) as { id: string; impact: string | null; nodes: { target: string[] }[] }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${where}: ${v.id} ${n.target.join(' ')}`));
}

/** Controls inside `within` a finger would miss: under 44 px high or wide (radios by their label). */
function smallTargets(page: Page, within: string): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(within)})].flatMap((root) =>
    [...root.querySelectorAll('button, select, .agent-choice, summary')].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && (r.height < 44 || r.width < 44);
    }).map((e) => e.className + ' ' + e.textContent.slice(0, 30) + ' ' + Math.round(e.getBoundingClientRect().height)))`) as Promise<
    string[]
  >;
}

/** The host's state once `holds` is true of it (10 s at most). */
const stateWhere = (h: TestHost, holds: (s: Snapshot) => boolean) =>
  waitFor(async () => {
    const s = await getState(h);
    return holds(s) ? s : undefined;
  }, 10_000);

/** A turn that offers commands and shows a plan that moves on while the agent works. */
const planTurn = () =>
  turn(
    update({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        { name: 'review', description: 'Review the changes so far' },
        { name: 'test', description: 'Run the project’s tests' },
      ],
    }),
    plan([
      ['Read the parser', 'completed'],
      ['Fix the off-by-one', 'in_progress'],
      ['Run the tests', 'pending'],
    ]),
    say('Working on it.'),
    wait(2500),
    plan([
      ['Read the parser', 'completed'],
      ['Fix the off-by-one', 'completed'],
      ['Run the tests', 'in_progress'],
    ]),
    wait(2500),
    say(' Done.'),
  );

describe('agent chrome on a phone in Chromium: agent and project, modes, plan, commands, desk sessions', {
  timeout: 60_000,
}, () => {
  let browser: Browser;
  let h: TestHost;
  let second: string;

  beforeAll(async () => {
    assertWebBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-chrome-'));
    second = realpathSync(mkdtempSync(join(tmpdir(), 'webbridge-parser-')));
    mkdirSync(join(dataDir, 'workspace'), { recursive: true });
    const command = fakeAgentCommand({
      agentInfo: { name: 'fake-agent', title: 'Fake Agent', version: '1.0.0' },
      modes: MODES,
      configOptions: [MODEL],
      sessions: [
        {
          sessionId: 'desk-older',
          cwd: second,
          title: 'Tidy the README',
          updatedAt: '2026-11-20T09:00:00.000Z',
          history: [],
        },
        {
          sessionId: 'desk-newer',
          cwd: second,
          title: 'Refactor the parser',
          updatedAt: '2026-11-28T10:00:00.000Z',
          history: [
            { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Refactor the parser' } },
            { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Started at the desk.' } },
          ],
        },
      ],
      turns: [planTurn(), planTurn()],
    });
    h = await startTestHost({
      dataDir,
      // A child process, as `--agent fake=...` runs it (the tests' SDK is another copy than
      // the host's, so an in-process app would not connect).
      agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
      workspaceRoots: [second],
    });
    await h.host.controller.executor.run(() => h.host.controller.projects.createProject('Parser', second));
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  /** Opens the drawer (phone) and the new-conversation sheet. */
  async function openSheet(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'New conversation: choose the agent and project' }).click();
    await page.getByRole('dialog', { name: 'New conversation' }).waitFor();
  }

  /**
   * A touch phone (a coarse pointer that cannot hover), connected and live, with what went
   * wrong in it. The page's CSP is bypassed in this context only, so axe can be injected.
   */
  async function openPhone(colorScheme: 'light' | 'dark') {
    const context = await browser.newContext({
      viewport: PHONE,
      hasTouch: true,
      isMobile: true,
      colorScheme,
      bypassCSP: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(8000);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource|net::ERR_/.test(m.text()))
        problems.push(m.text());
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.goto(`${h.url}/#code=${TEST_CODE}`);
    await page.locator('.badge[data-status="live"]').waitFor();
    return { context, page, problems };
  }

  it('hides the shortcuts button on a touch phone, so the title and the mode fit', async () => {
    const { context, page } = await openPhone('light');
    expect(await page.locator('.shortcuts-button').isVisible()).toBe(false);
    // A physical key pressed outside a field shows it (a tablet with a keyboard).
    await page.keyboard.press('Tab');
    await expect.poll(() => page.locator('.shortcuts-button').isVisible()).toBe(true);
    await context.close();
  });

  it('starts a conversation with the chosen agent in the chosen project, one tap for the built-in path', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, context, problems } = await openPhone(scheme);
      await openSheet(page);
      const sheet = page.getByRole('dialog', { name: 'New conversation' });
      await expect.poll(() => sheet.getByRole('radio').count()).toBe(2);
      await shot(page, `agent-new-conversation-${scheme}`);
      expect(await seriousFindings(page, `new conversation, ${scheme}`)).toEqual([]);
      expect(await smallTargets(page, '.sheet')).toEqual([]);
      if (scheme === 'dark') {
        await sheet.getByRole('button', { name: 'Cancel' }).click();
        await context.close();
        expect(problems).toEqual([]);
        continue;
      }
      await sheet.getByRole('radio', { name: /fake/i }).check();
      await sheet.getByLabel('Project').selectOption({ label: `Parser · ${second.split('/').pop()}` });
      await sheet.getByRole('button', { name: 'Start' }).click();
      await sheet.waitFor({ state: 'detached' });
      const state = await stateWhere(h, (s) => s.agents?.session?.agentId === 'fake');
      const current = state.conversations.list.find((c) => c.id === state.conversationId);
      expect(current?.agentId).toBe('fake');
      expect(state.projects.list.find((p) => p.id === state.projectId)?.name).toBe('Parser');
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('switches the agent’s mode from the top bar', async () => {
    for (const scheme of ['dark', 'light'] as const) {
      const { page, context } = await openPhone(scheme);
      const picker = page.locator('.agent-picker-button');
      await expect.poll(() => picker.textContent()).toContain('Ask');
      // At 390 px the conversation's title keeps room beside the picker.
      const titleWidth = await page.locator('.topbar-title').evaluate((e) => e.getBoundingClientRect().width);
      expect(titleWidth).toBeGreaterThan(100);
      await picker.click();
      const popover = page.getByRole('dialog', { name: 'Agent mode and settings' });
      await popover.waitFor();
      await shot(page, `agent-mode-picker-${scheme}`);
      // The popover stays on the screen with the longest option in it: opencode's model names
      // pushed it 98 px past the left edge of a 390 px phone, its labels cut.
      const box = await popover.boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousFindings(page, `mode picker, ${scheme}`)).toEqual([]);
      expect(await smallTargets(page, '.agent-picker')).toEqual([]);
      if (scheme === 'light') {
        await popover.getByRole('combobox', { name: /^Mode\b/ }).selectOption('accept-edits');
        await stateWhere(h, (s) => s.agents?.session?.modes?.current === 'accept-edits');
        await expect.poll(() => picker.textContent()).toContain('Accept edits');
        // The mode's name fits whole in the pill at 390 px (it is not cut with an ellipsis).
        const label = page.locator('.agent-picker-label');
        expect(await label.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
        // Closed by a tap, as on a phone (a key would show the keyboard's '?' button).
        await picker.click();
        await popover.waitFor({ state: 'detached' });
        // Beside the widest mode, the title is not cut either ("New conversation" whole).
        const title = page.locator('.topbar-title');
        expect(await title.textContent()).toBe('New conversation');
        // Page-side; the tests' compiler has no DOM library.
        const cut = (e: {
          scrollWidth: number;
          clientWidth: number;
          scrollHeight: number;
          clientHeight: number;
        }) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight;
        expect(await title.evaluate(cut)).toBe(false);
        await shot(page, 'agent-topbar-light');
        await picker.click();
        await popover.getByRole('combobox', { name: /^Model/ }).selectOption('large');
        await stateWhere(h, (s) => s.agents?.session?.configOptions[0]?.currentValue === 'large');
      }
      await context.close();
    }
  });

  it('pins the plan above the composer and updates it; offers the agent’s commands on /', async () => {
    const { page, context, problems } = await openPhone('light');
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('Fix the parser');
    await composer.press('Enter');
    const planBox = page.locator('.plan');
    await planBox.waitFor();
    await expect.poll(() => planBox.textContent()).toContain('1 of 3 done');
    await shot(page, 'agent-plan-light');
    await expect.poll(() => planBox.textContent(), { timeout: 10_000 }).toContain('2 of 3 done');
    expect(await page.locator('.plan-in_progress .plan-content').textContent()).toBe('Run the tests');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'agent-plan-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // The turn ends with entries left to do: the plan stays until they are done.
    await stateWhere(h, (s) => s.conversations.run.state === 'idle');

    await composer.fill('/re');
    const commands = page.getByRole('list', { name: 'Agent commands' });
    await commands.waitFor();
    expect(await commands.getByRole('button').allTextContents()).toEqual([
      '/reviewReview the changes so far',
    ]);
    await composer.fill('/');
    await expect.poll(() => commands.getByRole('button').count()).toBe(2);
    await shot(page, 'agent-commands-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'agent-commands-dark');
    expect(await seriousFindings(page, 'plan and commands, dark')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await seriousFindings(page, 'plan and commands, light')).toEqual([]);
    expect(await smallTargets(page, '.plan, .slash-commands')).toEqual([]);
    // From the keyboard too: down into the list, down again, Escape back to the composer.
    await composer.press('ArrowDown');
    await composer.page().keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.textContent')).toContain('/test');
    await page.keyboard.press('Escape');
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe('Message');
    await commands.getByRole('button', { name: /\/test/ }).click();
    expect(await composer.inputValue()).toBe('/test ');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lists the agent’s desk sessions newest first and continues one', async () => {
    for (const scheme of ['dark', 'light'] as const) {
      const { page, context, problems } = await openPhone(scheme);
      await openSheet(page);
      const sheet = page.getByRole('dialog', { name: 'New conversation' });
      await sheet.getByRole('radio', { name: /fake/i }).check();
      await sheet.getByRole('button', { name: 'Show this agent’s sessions' }).click();
      const rows = sheet.locator('.desk-session-title');
      // The desk's two, newest first, after the session this test's conversation started today.
      await expect
        .poll(async () => (await rows.allTextContents()).filter((t) => t !== 'Fix the parser'))
        .toEqual(['Refactor the parser', 'Tidy the README']);
      expect((await rows.allTextContents()).at(-1)).toBe('Tidy the README');
      await sheet.locator('.desk-sessions').scrollIntoViewIfNeeded();
      await shot(page, `agent-desk-sessions-${scheme}`);
      expect(await seriousFindings(page, `desk sessions, ${scheme}`)).toEqual([]);
      expect(await smallTargets(page, '.desk-sessions')).toEqual([]);
      if (scheme === 'dark') {
        await context.close();
        continue;
      }
      await sheet.getByRole('button', { name: 'Continue: Refactor the parser' }).click();
      await sheet.waitFor({ state: 'detached' });
      await page.getByText('Started at the desk.').waitFor();
      const state = await getState(h);
      expect(state.conversations.list.find((c) => c.id === state.conversationId)?.agentId).toBe('fake');
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
