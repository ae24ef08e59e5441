import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentCommand } from '../../support/acp/fakeAgentCommand';
import { plan, say, turn, update, wait } from '../../support/acp/fakeSteps';
import { getState } from '../../support/api';
import { startTestHost, type TestHost } from '../../support/testHost';
import { assertWebBuilt } from '../browserHarness';
import type { EngineBrowser, EnginePage } from './EnginePage';
import { MESSAGE_BOX, openConnected, shot, waitUntil } from './engineSteps';
import { engine, launchEngine } from './launchEngine';

const MODES: acp.SessionModeState = {
  currentModeId: 'ask',
  availableModes: [
    { id: 'ask', name: 'Ask' },
    { id: 'accept-edits', name: 'Accept edits' },
  ],
};

/** Sets a select's value as a person's pick does (one change event). Page-side script. */
const pick = (selector: string, value: string) => `(() => {
  const select = document.querySelector(${JSON.stringify(selector)});
  select.value = ${JSON.stringify(value)};
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return true;
})()`;

/**
 * The agent chrome (issue 27) in each engine, against a real host driving the scripted fake
 * ACP agent as a child process: a new conversation with the chosen agent and project, the mode
 * switched from the top bar, the plan pinned above the composer, a slash command offered, a
 * desk session continued.
 */
describe(`agent chrome in ${engine}`, () => {
  let browser: EngineBrowser;
  let h: TestHost;
  let page: EnginePage | undefined;
  let second: string;

  beforeAll(async () => {
    assertWebBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-engine-agent-'));
    mkdirSync(join(dataDir, 'workspace'), { recursive: true });
    second = realpathSync(mkdtempSync(join(tmpdir(), 'webbridge-engine-project-')));
    const command = fakeAgentCommand({
      modes: MODES,
      sessions: [
        {
          sessionId: 'desk-1',
          cwd: second,
          title: 'Refactor the parser',
          updatedAt: '2026-11-28T10:00:00.000Z',
          history: [
            { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Refactor the parser' } },
            { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Started at the desk.' } },
          ],
        },
      ],
      turns: [
        turn(
          update({
            sessionUpdate: 'available_commands_update',
            availableCommands: [{ name: 'review', description: 'Review the changes so far' }],
          }),
          plan([
            ['Read the parser', 'completed'],
            ['Fix the off-by-one', 'in_progress'],
          ]),
          say('Working on it.'),
          wait(1500),
          say(' Done.'),
        ),
      ],
    });
    [browser, h] = await Promise.all([
      launchEngine(),
      startTestHost({
        dataDir,
        agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
        workspaceRoots: [second],
      }),
    ]);
    await h.host.controller.executor.run(() => h.host.controller.projects.createProject('Parser', second));
  }, 120_000);
  afterEach(async () => {
    await page?.close();
    page = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('starts a conversation with the chosen agent in the chosen project, switches its mode, shows its plan and commands', async () => {
    page = await openConnected(browser, h);
    await page.click('.menu-button');
    await page.click('.new-with-agent');
    await page.waitFor('.sheet');
    // The second choice: the fake agent (named 'fake' until started, then by its title).
    await page.click('label.agent-choice:nth-of-type(2)');
    const parser = (await getState(h)).projects.list.find((p) => p.name === 'Parser')?.id ?? '';
    await page.evaluate(pick('.sheet select', parser));
    await shot(page, 'agent-new-conversation');
    await page.click('.sheet-actions button.primary');
    await page.waitFor('.sheet', { gone: true });
    await waitUntil('the agent conversation', async () => {
      const s = await getState(h);
      return (
        s.conversations.list.find((c) => c.id === s.conversationId)?.agentId === 'fake' &&
        s.projectId === parser
      );
    });

    await page.fill(MESSAGE_BOX, 'Fix the parser');
    await page.press(MESSAGE_BOX, 'Enter');
    await page.waitFor('.plan');
    await waitUntil(
      'the plan',
      async () => (await page?.text('.plan summary'))?.includes('1 of 2 done') ?? false,
    );
    await shot(page, 'agent-plan');

    await page.waitFor('.agent-picker-button');
    expect(await page.text('.agent-picker-button')).toContain('Ask');
    await page.click('.agent-picker-button');
    await page.waitFor('.agent-picker-popover');
    await page.evaluate(pick('.agent-picker-popover select', 'accept-edits'));
    await waitUntil(
      'the mode switched',
      async () => (await getState(h)).agents?.session?.modes?.current === 'accept-edits',
    );
    await waitUntil(
      'the pill',
      async () => (await page?.text('.agent-picker-button'))?.includes('Accept') ?? false,
    );
    await page.press('.agent-picker-popover select', 'Escape');
    await page.waitFor('.agent-picker-popover', { gone: true });
    // At 390 px the title shows whole beside the widest mode.
    expect(await page.text('.topbar-title')).toBe('Fix the parser');
    expect(
      await page.evaluate<boolean>(
        `(() => { const e = document.querySelector('.topbar-title'); return e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight; })()`,
      ),
    ).toBe(false);
    await shot(page, 'agent-topbar');

    await waitUntil('the turn to end', async () => (await getState(h)).conversations.run.state === 'idle');
    await page.fill(MESSAGE_BOX, '/');
    await page.waitFor('.slash-command');
    expect(await page.text('.slash-command')).toContain('/review');
    await shot(page, 'agent-commands');
    expect(await page.problems()).toEqual([]);
  });

  it('continues a session started at the desk', async () => {
    page = await openConnected(browser, h);
    await page.click('.menu-button');
    await page.click('.new-with-agent');
    // The second choice: the fake agent (named 'fake' until started, then by its title).
    await page.click('label.agent-choice:nth-of-type(2)');
    await page.click('.desk-sessions button');
    await page.waitFor({ css: '.desk-session', hasText: 'Refactor the parser' });
    await shot(page, 'agent-desk-sessions');
    // The desk's session (the one test 1's conversation started is newer, so listed first).
    await page.click('button[aria-label="Continue: Refactor the parser"]');
    await page.waitFor('.sheet', { gone: true });
    await page.waitFor({ css: '.message', hasText: 'Started at the desk.' });
    expect(await page.problems()).toEqual([]);
  });
});
