import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentCommand } from '../../support/acp/fakeAgentCommand';
import { edit, say, think, turn } from '../../support/acp/fakeSteps';
import { getState } from '../../support/api';
import { startTestHost, type TestHost } from '../../support/testHost';
import { assertWebBuilt } from '../browserHarness';
import type { EngineBrowser, EnginePage } from './EnginePage';
import { MESSAGE_BOX, openConnected, shot, waitUntil } from './engineSteps';
import { engine, launchEngine } from './launchEngine';

/**
 * An agent's edit (issue 27) in each engine, against a real host driving the scripted fake ACP
 * agent as a child process: the diff on the approval card with the agent's options, Allow once,
 * the thinking collapsed under the reply.
 */
describe(`agent messages in ${engine}`, () => {
  let browser: EngineBrowser;
  let h: TestHost;
  let page: EnginePage | undefined;
  let file: string;

  beforeAll(async () => {
    assertWebBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-engine-agent-messages-'));
    mkdirSync(join(dataDir, 'workspace'), { recursive: true });
    file = join(realpathSync(join(dataDir, 'workspace')), 'parser.ts');
    writeFileSync(file, 'const end = tokens.length + 1;\n');
    const command = fakeAgentCommand({
      turns: [
        turn(
          think('The end is one past the last token.'),
          ...edit({
            path: file,
            oldText: 'const end = tokens.length + 1;\n',
            newText: 'const end = tokens.length;\n',
          }),
          say('Fixed the bound.'),
        ),
      ],
    });
    [browser, h] = await Promise.all([
      launchEngine(),
      startTestHost({
        dataDir,
        agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
      }),
    ]);
  }, 120_000);
  afterEach(async () => {
    await page?.close();
    page = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('shows the edit as a diff with the agent’s options, takes Allow once, folds the thinking', async () => {
    page = await openConnected(browser, h);
    await h.host.controller.executor.run(() =>
      h.host.controller.conversations.newConversation(undefined, undefined, 'fake'),
    );
    await page.fill(MESSAGE_BOX, 'Fix the parser');
    await page.press(MESSAGE_BOX, 'Enter');
    await page.waitFor('.message .approval .diff-lines', { timeout: 20_000 });
    expect(await page.text('.message .approval .diff-count-add')).toBe('+1');
    expect(await page.text('.message .approval .diff-line-del mark.diff-word')).toBe(' + 1');
    expect(await page.count('.message .approval-options button')).toBe(4);
    await shot(page, 'agent-msg-approval-diff');
    await page.click('.message .approval-options button[data-option-kind="allow_once"]');
    await waitUntil(
      'the turn to end',
      async () => (await getState(h)).conversations.messages.at(-1)?.stopReason === 'end_turn',
    );
    await page.waitFor('.message .approval', { gone: true });
    expect(await page.text('details.thought summary')).toBe('Thought');
    expect(await page.count('.thought-text')).toBe(0);
    await shot(page, 'agent-msg-after');
    expect(await page.problems()).toEqual([]);
  }, 90_000);
});
