import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningHost, startHost } from '@webbridge/host';
import { type BrowserContext, chromium } from 'playwright-core';
import { PHONE } from '../browser/browserHarness';
import { PACED_MODEL, scriptedModels } from '../browser/scriptedModel';
import { CHROMIUM_ARGS } from '../support/chromium';
import { agentModels, seedAgentConversation, writeAgentWorkspace } from './agentConversation';

/** What the slow-phone benchmarks (slowPhone.ts, slowPhoneEngines.ts) share. */

/** Messages of the long conversation and of the short one (an agent's: prose, code, tables, tools). */
export const LONG_MESSAGES = 2000;
export const SHORT_MESSAGES = 50;
/** A word of the streamed reply every this many ms. */
export const WORD_MS = 30;

/** A reference host in this process with a short and a long conversation, for the pages to open. */
export interface SlowPhoneScene {
  readonly host: RunningHost;
  readonly short: string;
  readonly long: string;
  /** Makes conversation `id` the current one (what the next page opens). */
  select(id: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the host (scripted models, SQLite in a temporary folder, the built page from `dist`)
 * and seeds the short conversation, then the long one, each an agent's conversation
 * (agentConversation.ts) through the host's controller.
 */
export async function startSlowPhoneScene(code: string, dist: string): Promise<SlowPhoneScene> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-bench-slow-phone-'));
  const host = await startHost({
    dataDir,
    staticDir: dist,
    accessCode: code,
    providers: [scriptedModels(WORD_MS), agentModels()],
    logLevel: 'silent',
    tuning: { authThrottle: { freeFailures: 1000 } },
  });
  const { controller } = host;
  writeAgentWorkspace(join(dataDir, 'workspace'));
  await seedAgentConversation(host, SHORT_MESSAGES, PACED_MODEL);
  const short = controller.readState().conversationId;
  await controller.executor.run(() => controller.conversations.newConversation(undefined, 'Long'));
  const long = controller.readState().conversationId;
  await seedAgentConversation(host, LONG_MESSAGES, PACED_MODEL);
  return {
    host,
    short,
    long,
    async select(id) {
      await controller.executor.run(() => controller.conversations.selectConversation(id));
    },
    async close() {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Page-side, as text: a function that takes `painted(ms)` and calls it for each key that typed
 * a character, with the time from its keydown to the frame after its input painted (a task
 * posted from that frame's animation callback runs after its paint). A key that types nothing
 * (Enter sending the message) is replaced by the next one, so it is not timed up to the next
 * character.
 */
export const WHEN_KEY_PAINTED = `((painted) => {
  let pressed;
  addEventListener('keydown', (event) => { pressed = event.timeStamp; }, true);
  addEventListener('input', () => {
    if (pressed === undefined) return;
    const from = pressed;
    pressed = undefined;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => painted(performance.now() - from);
      channel.port2.postMessage(0);
    });
  }, true);
})`;

/**
 * A reply of `words` words, echoed by the scripted model (a user message starting with `>`):
 * what the slow-phone benchmarks (slowPhone.ts, slowPhoneEngines.ts) stream, plain words with
 * some bold and code and a paragraph break every 60 words.
 */
export function streamedReply(words: number): string {
  const vocabulary = [
    'the',
    'reply',
    'grows',
    'one',
    'word',
    'at',
    'a',
    'time,',
    'with',
    '**bold**',
    '`code`',
    'and',
  ];
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    out.push(vocabulary[i % vocabulary.length] ?? 'word');
    if (i % 60 === 59) out.push('\n\n');
  }
  return out.join(' ');
}

/** A Chromium profile at a phone's size in `dir` (kept between a visit and the next: warm openings). */
export function launchPhone(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS],
    viewport: PHONE,
    deviceScaleFactor: 1,
  });
}
