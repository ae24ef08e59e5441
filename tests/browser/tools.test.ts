import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, shot } from './browserHarness';

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
});
