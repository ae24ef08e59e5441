import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Snapshot } from '@webbridge/contract';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import { edit, say, turn } from '../support/acp/fakeSteps';
import { act, getState, guardOf, waitFor } from '../support/api';
import { startTcpRelay, type TcpRelay } from '../support/tcpRelay';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, PHONE, restartHost, shot } from './browserHarness';
import { type CdpChromium, freeze, launchCdpChromium, unfreeze } from './cdpChromium';

/**
 * The agent screens in a pocket (issue 27): a phone that freezes the page, loses the network,
 * sees its host restart and runs slowly, while an agent's approval waits with its diff on screen.
 * Chromium launched by this process (so freezing is real), the page through a TCP relay (so the
 * network can die silently), a real host driving the fake ACP agent as a child process.
 */

const OLD = Array.from({ length: 60 }, (_, i) => `  const line${i} = parse(${i});`).join('\n');
const NEW = OLD.replace('parse(30)', 'parseStrict(30)');

const stateWhere = (h: TestHost, holds: (s: Snapshot) => boolean, ms = 15_000) =>
  waitFor(async () => {
    const s = await getState(h);
    return holds(s) ? s : undefined;
  }, ms);

describe('agent screens in a pocket (Chromium at 390×844)', () => {
  let chromium: CdpChromium;
  let context: BrowserContext;
  let page: Page;
  let h: TestHost;
  let relay: TcpRelay;
  let parser: string;
  let agentOptions: Parameters<typeof startTestHost>[0];
  const problems: string[] = [];

  beforeAll(async () => {
    assertWebBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-pocket-'));
    mkdirSync(join(dataDir, 'workspace', 'src'), { recursive: true });
    parser = join(realpathSync(join(dataDir, 'workspace')), 'src', 'parser.ts');
    writeFileSync(parser, OLD);
    const command = fakeAgentCommand({
      stateFile: join(dataDir, 'agent-sessions.json'),
      turns: [
        turn(...edit({ path: parser, oldText: OLD, newText: NEW, toolCallId: 'edit-1' }), say('Changed it.')),
        turn(
          ...edit({ path: parser, oldText: NEW, newText: OLD, toolCallId: 'edit-2' }),
          say('Put it back.'),
        ),
      ],
    });
    agentOptions = {
      dataDir,
      agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
    };
    [chromium, h] = await Promise.all([launchCdpChromium(), startTestHost(agentOptions)]);
    relay = await startTcpRelay(h.port);
    context = chromium.browser.contexts()[0]!;
    page = context.pages()[0]!;
    await page.setViewportSize(PHONE);
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => problems.push(error.message));
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await relay?.close();
    await h?.close(true);
  }, 60_000);

  const card = () => page.locator('.message .approval');

  it('keeps the waiting approval and its diff through a freeze, a slow CPU and a dead network; a tap made offline is sent once', async () => {
    await page.goto(`http://127.0.0.1:${relay.port}/#code=${TEST_CODE}`);
    await page.locator('.badge[data-status="live"]').waitFor();
    await act(h, { action: 'newConversation', agentId: 'fake' });
    await act(h, { action: 'send', text: 'make parsing strict', ...guardOf(await getState(h)) });
    await card().locator('.diff-lines').waitFor({ timeout: 30_000 });

    // Frozen in the pocket for a while, then taken out: the card is as it was, live again.
    const cdp: CDPSession = await freeze(page);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await unfreeze(cdp);
    await page.locator('.badge[data-status="live"]').waitFor();
    expect(await card().locator('.diff-line-add').count()).toBe(1);
    expect(await card().getByRole('button', { name: 'Allow once' }).isEnabled()).toBe(true);

    // A slow phone: the whole file drawn on "show more", the card scrolled, nothing lost.
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await card().locator('.diff-more').click();
    // 59 unchanged lines, the removed one and the added one.
    await expect.poll(() => card().locator('.diff-line').count(), { timeout: 30_000 }).toBe(61);
    await card().getByRole('button', { name: 'Allow once' }).scrollIntoViewIfNeeded();
    await shot(page, 'agent-pocket-slow-whole-file');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    // The network dies without a word: the page says so, and the card stays with its diff.
    relay.cut();
    await page.locator('.badge:not([data-status="live"])').waitFor({ timeout: 40_000 });
    expect(await card().locator('.diff-lines').isVisible()).toBe(true);
    await shot(page, 'agent-pocket-offline-approval');
    // Allowed while the network is dead: its request hangs (nothing fails yet, so the SDK's
    // pending list has nothing to show); the card says it is sending, and it is sent once when
    // the network is back.
    await card().getByRole('button', { name: 'Allow once' }).click();
    await card().getByRole('status').filter({ hasText: 'Sending…' }).waitFor();
    await shot(page, 'agent-pocket-offline-allow');
    relay.restore();
    await page.locator('.badge[data-status="live"]').waitFor({ timeout: 30_000 });
    await stateWhere(h, (s) => s.conversations.messages.at(-1)?.stopReason === 'end_turn');
    expect(readFileSync(parser, 'utf8')).toBe(NEW);
    await card().waitFor({ state: 'detached' });
    const allowed = (await getState(h)).conversations.messages.filter((m) => m.tool?.decided !== undefined);
    expect(allowed.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 180_000);

  it('after a host restart while an approval waits, shows no card that can no longer work', async () => {
    await act(h, { action: 'send', text: 'put it back', ...guardOf(await getState(h)) });
    await card().locator('.diff-lines').waitFor({ timeout: 30_000 });
    relay.cut();
    h = await restartHost(h, agentOptions);
    relay.restore();
    await page.locator('.badge[data-status="live"]').waitFor({ timeout: 30_000 });
    // The agent's process went with the host: its request is cancelled, not left waiting.
    const after = await stateWhere(h, (s) => s.approvals.length === 0);
    expect(after.conversations.messages.at(-1)).toMatchObject({ role: 'tool', status: 'error' });
    await card().waitFor({ state: 'detached' });
    // Its card says the call did not finish; it no longer reads "Pending" for ever.
    const stopped = page.locator('.agent-tool[data-tool-call-id="edit-2"]');
    await expect.poll(() => stopped.locator('.agent-tool-status').textContent()).toBe('Failed');
    await page.locator('.message-error', { hasText: 'was stopped' }).waitFor();
    await shot(page, 'agent-pocket-after-restart');
    expect(problems).toEqual([]);
  }, 120_000);
});
