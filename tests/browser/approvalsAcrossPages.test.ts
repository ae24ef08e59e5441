import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { startTcpRelay, type TcpRelay } from '../support/tcpRelay';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, openPage, PHONE, shot } from './browserHarness';

describe('approvals that agree across two pages', () => {
  let browser: Browser;
  let h: TestHost;
  let relay: TcpRelay;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 5 })]);
    relay = await startTcpRelay(h.port);
  });
  afterAll(async () => {
    await relay?.close();
    await browser?.close();
    await h?.close(true);
  });

  it('shows who answered on both, and a stale Allow is told what happened at once', async () => {
    const a = await openConnected(browser, h, PHONE);
    const b = await openPage(browser, `http://127.0.0.1:${relay.port}/#code=${TEST_CODE}`);
    await b.page.locator('.badge[data-status="live"]').waitFor();

    const state = await getState(h);
    await act(h, {
      action: 'send',
      text: '/tool write_file {"path":"both.txt","content":"x"}',
      ...guardOf(state),
    });
    const cardA = a.page.locator('.message .approval');
    const cardB = b.page.locator('.message .approval');
    await Promise.all([cardA.waitFor(), cardB.waitFor()]);

    // B's stream goes silent: it keeps showing Allow / Deny after A has answered.
    relay.cutEvents();
    await cardA.getByRole('button', { name: 'Allow' }).click();
    const lineA = a.page.locator('.message-tool .decision');
    await lineA.waitFor();
    // Each page paired itself on opening (the code in the link, "remember this device" on).
    const device = (await getState(h)).conversations.messages.find((m) => m.role === 'tool')?.tool?.decided
      ?.by;
    expect(device?.kind).toBe('device');
    const name = device?.kind === 'device' ? device.name : '';
    expect(await lineA.textContent()).toMatch(new RegExp(`^Allowed on ${name} at \\d{1,2}:\\d{2}`));
    expect(await a.page.locator('.message-assistant .decision').last().textContent()).toBe(
      await lineA.textContent(),
    );
    expect(await cardA.count()).toBe(0);

    expect(await cardB.getByRole('button', { name: 'Allow' }).isVisible()).toBe(true);
    await cardB.getByRole('button', { name: 'Deny' }).click();
    // The card answers at once with what happened, without waiting for the stream.
    const lineB = cardB.locator('.decision');
    await lineB.waitFor({ timeout: 2000 });
    expect(await lineB.textContent()).toBe(await lineA.textContent());
    expect(await cardB.getByRole('button', { name: 'Deny' }).count()).toBe(0);
    expect(await b.page.locator('.notice').textContent()).toContain(`already allowed on ${name}`);
    await shot(b.page, 'approval-stale-answer');
    // Nothing was denied: the host still has the first answer.
    const after = await getState(h);
    expect(after.conversations.messages.find((m) => m.role === 'tool')?.tool?.decided?.decision).toBe(
      'allow',
    );
    expect([...a.problems, ...b.problems]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('marks an approval waiting in another conversation in the list and on the menu button', async () => {
    const a = await openConnected(browser, h, PHONE);
    const first = await getState(h);
    await act(h, { action: 'newConversation' });
    let state = await getState(h);
    await act(h, {
      action: 'send',
      text: '/tool write_file {"path":"there.txt","content":"x"}',
      ...guardOf(state),
    });
    await waitFor(async () => ((await getState(h)).approvals.length === 1 ? true : undefined));
    const waitingIn = state.conversationId;
    await act(h, { action: 'selectConversation', conversationId: first.conversationId });
    state = await getState(h);
    expect(state.conversationId).not.toBe(waitingIn);

    const menu = a.page.getByRole('button', { name: /Open menu: An approval waits in another conversation/ });
    await menu.waitFor();
    expect(await menu.locator('.approval-mark').count()).toBe(1);
    await shot(a.page, 'approval-elsewhere-menu');
    await menu.click();
    const item = a.page.locator('.conversation', {
      has: a.page.getByRole('img', { name: 'An approval waits in this conversation' }),
    });
    await item.waitFor();
    expect(await a.page.locator('.conversation .approval-mark').count()).toBe(1);
    await shot(a.page, 'approval-elsewhere-list');

    // Answered, the marks go.
    await act(h, { action: 'approve', approvalId: (await getState(h)).approvals[0]!.id, decision: 'deny' });
    await a.page.locator('.approval-mark').first().waitFor({ state: 'detached' });
    expect(a.problems).toEqual([]);
    await a.context.close();
  });
});
