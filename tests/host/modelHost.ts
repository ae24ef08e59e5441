import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Snapshot } from '@webbridge/contract';
import { createModelProviders, type OpenAiConfig, startHost } from '@webbridge/host';
import { act, getState, guardOf, waitFor } from '../support/api';
import type { TestHost } from '../support/testHost';

const CODE = 'host-model-test-code';

/** A real host (SQLite, bridge on 127.0.0.1:0) whose models come from an OpenAI-compatible endpoint. */
export async function startModelHost(openai: OpenAiConfig, warnings: string[] = []): Promise<TestHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-host-model-'));
  const providers = await createModelProviders({ openai }, (message) => warnings.push(message));
  const host = await startHost({ dataDir, accessCode: CODE, echoDelayMs: 1, staticDir: null, providers });
  const port = host.address.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    host,
    auth: (extra = {}) => ({ Authorization: `Bearer ${CODE}`, 'Content-Type': 'application/json', ...extra }),
    close: () => host.close(),
  };
}

/** Sends `text` into the current conversation; returns the send's result. */
export async function send(h: TestHost, text: string) {
  return act(h, { action: 'send', text, ...guardOf(await getState(h)) });
}

/** Waits until the last message of the current conversation satisfies `predicate`. */
export function waitForLast(
  h: TestHost,
  predicate: (last: Snapshot['conversations']['messages'][number], state: Snapshot) => boolean,
  timeoutMs = 5_000,
): Promise<Snapshot> {
  return waitFor(async () => {
    const state = await getState(h);
    const last = state.conversations.messages.at(-1);
    return last && predicate(last, state) ? state : undefined;
  }, timeoutMs);
}
