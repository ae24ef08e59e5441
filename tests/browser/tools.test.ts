import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, PHONE, shot } from './browserHarness';

describe('tools in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 10 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('shows a disabled tool as off and a tool call with its result under the tool name', async () => {
    await act(h, { action: 'updateSettings', settings: { allowCommands: false } });
    expect((await getState(h)).settings.allowCommands).toBe(false);
    const { page, problems, context } = await openConnected(browser, h);

    const tools = page.locator('.panel', { has: page.getByRole('heading', { name: /^Tools/ }) });
    await tools.locator('summary').click();
    const runCommand = tools.locator('li[data-tool="run_command"]');
    await runCommand.waitFor();
    expect(await runCommand.getAttribute('class')).toContain('disabled');
    expect(await runCommand.locator('.tool-tag').textContent()).toBe('(off)');
    expect(await runCommand.getAttribute('title')).toContain('Allow running commands');
    const readFile = tools.locator('li[data-tool="read_file"]');
    expect(await readFile.getAttribute('class')).toBeNull();
    expect(await readFile.getAttribute('title')).toBeNull();

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/tool read_file {"path":"nope.txt"}');
    await box.press('Enter');
    const result = page.locator('.message-tool').last();
    await result.waitFor({ timeout: 10_000 });
    expect(await result.locator('.tool-call .tool-name').textContent()).toBe('read_file');
    expect(await result.locator('.tool-call .tool-args').textContent()).toContain('nope.txt');
    expect(await result.locator('.tool-result summary').textContent()).toBe('Result of read_file');
    const call = page.locator('.message-assistant').last();
    expect(await call.locator('.tool-call .tool-name').textContent()).toBe('read_file');
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 10_000 });
    await runCommand.scrollIntoViewIfNeeded();
    await shot(page, 'tools');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("names the file by its place in the project on the approval, and keeps the write's diff in the conversation once allowed", async () => {
    const { page, problems, context } = await openConnected(browser, h, PHONE);
    const full = join(realpathSync(join(h.dataDir, 'workspace')), 'docs', 'guide', 'notes.md');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/tool write_file {"path":"docs/guide/notes.md","content":"# Notes\\n\\nFirst line.\\n"}');
    await box.press('Enter');
    const card = page.locator('.message .approval');
    await card.locator('.diff-lines').waitFor({ timeout: 10_000 });
    // The path as the project knows it; the whole path on the host stays at hand.
    const path = card.locator('.diff-head .file-path');
    expect(await path.textContent()).toBe('docs/guide/notes.md');
    expect(await path.getAttribute('title')).toBe(full);
    await shot(page, 'tools-approval-relative-path');
    await card.getByRole('button', { name: 'Allow' }).click();
    await card.waitFor({ state: 'detached' });
    // After the approval, the result keeps what changed: the same diff, in the history.
    const result = page.locator('.message-tool').last();
    const diff = result.locator('.diff');
    await diff.locator('.diff-lines').waitFor({ timeout: 10_000 });
    expect(await diff.locator('.diff-badge-new').count()).toBe(1);
    expect(await diff.locator('.diff-count-add').textContent()).toBe('+3');
    expect(await diff.locator('.diff-head .file-path').textContent()).toBe('docs/guide/notes.md');
    expect(await diff.locator('.diff-line-add').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('First line.')]),
    );
    await shot(page, 'tools-result-diff');
    expect(problems).toEqual([]);
    await context.close();
  });
});
