import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Snapshot } from '@webbridge/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import { edit, say, think, turn, update } from '../support/acp/fakeSteps';
import { act, getState, guardOf, waitFor } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, PHONE, shot } from './browserHarness';

/**
 * An agent's work as a phone shows it (issue 27), in Chromium against a real host driving the
 * scripted fake ACP agent as a child process: the edit's diff on the approval card with the agent's
 * own options, Allow once from a second page, the agent's thinking collapsed under the reply,
 * a tool call card with its terminal output, a turn's "Changes", and the host's own write tool
 * with its diff. axe finds nothing serious. Screenshots at 390×844 in light and dark go to
 * tests/.artifacts (agent-msg-*.png).
 */

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's serious and critical findings on the page as it is (evaluated through DevTools: the page's CSP stays on). */
async function serious(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  )) as { id: string; impact: string | null; nodes: { target: string[] }[] }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')}`));
}

const stateWhere = (h: TestHost, holds: (s: Snapshot) => boolean) =>
  waitFor(async () => {
    const s = await getState(h);
    return holds(s) ? s : undefined;
  }, 15_000);

const OLD = Array.from({ length: 40 }, (_, i) =>
  i === 20 ? '  for (let i = 0; i <= tokens.length; i++) {' : `  const line${i} = parse(${i});`,
).join('\n');
const NEW = OLD.replace('i <= tokens.length', 'i < tokens.length');

describe('agent messages on a phone in Chromium: diffs, options, thinking, tool cards', () => {
  let browser: Browser;
  let h: TestHost;
  let parser: string;
  let notes: string;

  beforeAll(async () => {
    assertWebBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-messages-'));
    mkdirSync(join(dataDir, 'workspace'), { recursive: true });
    const workspace = realpathSync(join(dataDir, 'workspace'));
    parser = join(workspace, 'src', 'parser.ts');
    notes = join(workspace, 'NOTES.md');
    mkdirSync(join(workspace, 'src'));
    writeFileSync(parser, OLD);
    const command = fakeAgentCommand({
      turns: [
        turn(
          think('The loop reads one token past the end. I will run the tests, then fix the bound.'),
          { type: 'terminal', command: 'seq', args: ['1', '80'], toolCallId: 'tests-1' },
          ...edit({ path: parser, oldText: OLD, newText: NEW, toolCallId: 'edit-parser' }),
          update({
            sessionUpdate: 'tool_call',
            toolCallId: 'edit-notes',
            title: 'Write NOTES.md',
            kind: 'edit',
            status: 'completed',
            content: [
              { type: 'diff', path: notes, oldText: null, newText: '# Notes\n\nThe bound is fixed.\n' },
            ],
            locations: [{ path: notes }],
          }),
          say('Fixed the off-by-one in the parser and wrote a note.'),
        ),
      ],
    });
    [browser, h] = await Promise.all([
      launchBrowser(),
      startTestHost({
        dataDir,
        agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
      }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('shows the edit as a diff with the agent’s options; Allow once on a second page; then thinking, terminal, changes', async () => {
    const a = await openConnected(browser, h, PHONE, 'light');
    const b = await openConnected(browser, h, PHONE, 'dark');
    await act(h, { action: 'newConversation', agentId: 'fake' });
    await act(h, { action: 'send', text: 'fix the parser', ...guardOf(await getState(h)) });

    for (const { page } of [a, b]) {
      const card = page.locator('.message .approval');
      await card.locator('.diff-lines').waitFor({ timeout: 15_000 });
      // From the project's folder; the whole path on the host in its title.
      expect(await card.locator('.diff-head .file-path').textContent()).toBe('src/parser.ts');
      expect(await card.locator('.diff-head .file-path').getAttribute('title')).toBe(parser);
      expect(await card.locator('.diff-count-add').textContent()).toBe('+1');
      expect(await card.locator('.diff-count-del').textContent()).toBe('−1');
      // Collapsed to the hunk: 3 lines either side of the changed one, and the gap above.
      expect(await card.locator('.diff-line-same').count()).toBe(6);
      expect(await card.locator('.diff-line-hunk').count()).toBe(1);
      // Word marks: jsdiff splits punctuation, so the '=' that went is what is marked.
      expect(await card.locator('.diff-line-del mark.diff-word').allTextContents()).toEqual(['=']);
      expect(await card.locator('.diff-line-add mark.diff-word').count()).toBe(0);
      // Syntax colours on the unchanged lines.
      expect(await card.locator('.diff-line-same .hljs-keyword').count()).toBeGreaterThan(0);
      // Coloured in the diff worker: the page itself fetched no highlighter (a worker's fetches
      // are in the worker's own timeline), so it never compiled a grammar on its main thread.
      const fetched = await a.page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => e.name),
      );
      expect(fetched.filter((name) => /\/(highlight|typescript)-[\w-]+\.js$/.test(name))).toEqual([]);
      expect(await card.locator('.approval-options button').allTextContents()).toEqual([
        'Allow once',
        'Always allow',
        'Deny',
        'Always deny',
      ]);
      // The waiting call's card above does not draw the same diff again.
      expect(await page.locator('.agent-tool[data-tool-call-id="edit-parser"] .diff').count()).toBe(0);
      await card.scrollIntoViewIfNeeded();
    }
    await shot(a.page, 'agent-msg-approval-diff-light');
    await shot(b.page, 'agent-msg-approval-diff-dark');
    expect(await serious(b.page)).toEqual([]);

    await b.page.locator('.message .approval').getByRole('button', { name: 'Allow once' }).click();
    const done = await stateWhere(h, (s) => s.conversations.messages.at(-1)?.stopReason === 'end_turn');
    expect(readFileSync(parser, 'utf8')).toBe(NEW);
    expect(
      done.conversations.messages.find((m) => m.agentTool?.id === 'edit-parser')?.agentTool?.status,
    ).toBe('completed');
    await a.page.locator('.message .approval').waitFor({ state: 'detached' });

    for (const { page } of [a, b]) {
      // Thinking: one closed line, opened on a tap.
      const thought = page.locator('details.thought');
      await thought.waitFor();
      expect(await thought.getAttribute('open')).toBeNull();
      expect(await thought.locator('summary').textContent()).toBe('Thought');
      expect(await page.locator('.thought-text').count()).toBe(0);

      // The terminal's output in its card, done.
      const tests = page.locator('.agent-tool[data-tool-call-id="tests-1"]');
      await tests.locator('.agent-terminal', { hasText: '80' }).waitFor();
      expect(await tests.locator('.agent-tool-status').textContent()).toBe('Done');

      // The edit's card: its one diff drawn open, the file not repeated as a link above it.
      const editCard = page.locator('.agent-tool[data-tool-call-id="edit-parser"]');
      expect(await editCard.locator('.agent-tool-status').textContent()).toBe('Done');
      await editCard.locator('.diff .diff-lines').waitFor();
      expect(await editCard.locator('.agent-tool-location').count()).toBe(0);
      // The host's own record of the call does not repeat the card in raw form.
      expect(await page.locator('.message-tool .tool-call').count()).toBe(0);

      // Two files changed: the turn's summary lists both, the new one marked.
      const changes = page.getByRole('region', { name: 'Files changed in this turn' });
      await changes.waitFor();
      expect(await changes.locator('h3').textContent()).toBe('Changes (2 files)');
      expect(await changes.locator('summary code').allTextContents()).toEqual(['src/parser.ts', 'NOTES.md']);
    }
    for (const [name, { page }] of [
      ['light', a],
      ['dark', b],
    ] as const) {
      await page.locator('details.thought summary').click();
      await page.locator('.thought-text', { hasText: 'one token past the end' }).waitFor();
      await page.locator('details.thought').scrollIntoViewIfNeeded();
      await shot(page, `agent-msg-thought-terminal-${name}`);
      const changes = page.locator('.changes-summary');
      await changes.locator('summary').last().click();
      await changes.locator('details[open] .diff-lines').waitFor();
      await changes.scrollIntoViewIfNeeded();
      await shot(page, `agent-msg-changes-${name}`);
      expect(await serious(page)).toEqual([]);
    }
    expect([...a.problems, ...b.problems]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  }, 90_000);

  it('shows the host’s own write tool as a new file in its approval card', async () => {
    const a = await openConnected(browser, h, PHONE, 'light');
    await act(h, { action: 'newConversation' });
    await act(h, {
      action: 'send',
      text: '/tool write_file {"path":"fresh.txt","content":"one\\ntwo\\n"}',
      ...guardOf(await getState(h)),
    });
    const card = a.page.locator('.message .approval');
    await card.locator('.diff-badge-new').waitFor();
    // The badge is drawn at once (no old text), the rows when the diff worker has answered.
    await card.locator('.diff-line-add').nth(1).waitFor();
    expect(await card.locator('.diff-line-add').allTextContents()).toEqual(['1+Added: one', '2+Added: two']);
    expect(await card.getByRole('button').allTextContents()).toContain('Allow');
    await shot(a.page, 'agent-msg-host-write-light');
    await card.getByRole('button', { name: 'Deny' }).click();
    await card.waitFor({ state: 'detached' });
    expect(a.problems).toEqual([]);
    await a.context.close();
  }, 60_000);
});
