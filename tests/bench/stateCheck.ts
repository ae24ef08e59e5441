/**
 * The SDK reading a long agent conversation's state (issue 29): the text of GET /api/state for
 * a 2,000-message agent conversation (agentConversation.ts, served by a real host), parsed
 * without prototype keys and checked against the contract as the SDK does it (restFetcher.ts,
 * client.ts), and the same state as the first frame of GET /api/events (decodeFrame.ts). Each
 * step twice: as it was (`JSON.parse` with a reviver on every value, zod's full parse) and as it
 * is (`parseJsonSafely`, `fastParser`). Median of many runs in ms, and old/new as a ratio (the
 * ratio travels across machines, the ms do not).
 * Run: pnpm build && node --expose-gc --import tsx tests/bench/stateCheck.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeFrame,
  fastAccept,
  fastParser,
  parseJsonSafely,
  STATE_EVENT,
  snapshotSchema,
  stateEventSchema,
} from '@webbridge/contract';
import { startHost } from '@webbridge/host';
import { PACED_MODEL, scriptedModels } from '../browser/scriptedModel';
import { agentModels, seedAgentConversation, writeAgentWorkspace } from './agentConversation';
import { printTable, quantile } from './table';

const MESSAGES = 2000;
const RUNS = 25;
const CODE = 'bench-state-check-9q2m';
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** `parseJsonSafely` as it was: the reviver on every value. */
function parseWithReviver(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (FORBIDDEN.has(key) ? undefined : value));
}

const checkSnapshot = fastParser(snapshotSchema);
const checkEvent = fastParser(stateEventSchema);

async function stateText(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-bench-state-check-'));
  const host = await startHost({
    dataDir,
    accessCode: CODE,
    providers: [scriptedModels(30), agentModels()],
    logLevel: 'silent',
  });
  try {
    writeAgentWorkspace(join(dataDir, 'workspace'));
    await seedAgentConversation(host, MESSAGES, PACED_MODEL);
    const response = await fetch(`${host.url}/api/state`, { headers: { authorization: `Bearer ${CODE}` } });
    if (!response.ok) throw new Error(`GET /api/state answered ${response.status}`);
    return await response.text();
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function median(step: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const start = performance.now();
    step();
    times.push(performance.now() - start);
  }
  return quantile(times, 0.5);
}

function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(`${what} failed: the bench measures nothing`);
}

const text = await stateText();
const frame = `{"kind":"snapshot","seq":1,"signature":"bench","heartbeatMs":15000,"snapshot":${text}}`;
const parsed = JSON.parse(text) as { conversations: { messages: unknown[] } };
must(parsed.conversations.messages.length >= MESSAGES, 'seeding');
must(snapshotSchema.safeParse(parseWithReviver(text)).success, 'the old check');
must(checkSnapshot(parseJsonSafely(text)).success, 'the new check');
// Else the new column would time zod again, behind a test that says no.
must(fastAccept(snapshotSchema)?.(parseJsonSafely(text)) === true, 'the fast test of the snapshot');
must(decodeFrame({ event: STATE_EVENT, id: '1', data: frame })?.type === 'state', 'decodeFrame');

const rows: Record<string, string | number>[] = [];
const row = (step: string, old: () => unknown, now: () => unknown) => {
  const before = median(old);
  const after = median(now);
  rows.push({ step, 'old ms': before, 'new ms': after, 'old/new': before / after });
};
row(
  'parse (no prototype keys)',
  () => parseWithReviver(text),
  () => parseJsonSafely(text),
);
const value = parseJsonSafely(text);
row(
  'check the snapshot',
  () => snapshotSchema.safeParse(value),
  () => checkSnapshot(value),
);
row(
  'GET /api/state: parse + check',
  () => snapshotSchema.safeParse(parseWithReviver(text)),
  () => checkSnapshot(parseJsonSafely(text)),
);
row(
  'snapshot frame: parse + check',
  () => stateEventSchema.safeParse(parseWithReviver(frame)),
  () => checkEvent(parseJsonSafely(frame)),
);
printTable(
  `The SDK reading a ${parsed.conversations.messages.length}-message agent conversation's state ` +
    `(${(text.length / 1e6).toFixed(2)} MB of JSON), median of ${RUNS} runs, Node ${process.version}, ` +
    `load ${loadavg()[0]?.toFixed(2)}`,
  rows,
);
