/**
 * Staying current on a phone (issue 19), measured in Debian's Chromium at 390×844 against real
 * hosts in this process, over loopback:
 * - after a 20 s freeze (DevTools `Page.setWebLifecycleState`) during a 600-word reply in a
 *   240-exchange conversation: time from resume to the complete reply on screen, and the bytes
 *   the page's resumed stream carried against a snapshot of that conversation;
 * - after a silent connection loss (a TCP relay that stops forwarding), with 3 s heartbeats:
 *   time until the page stops claiming to be live;
 * - after the network returns (the relay forwards again and the browser is back online):
 *   time until the page is live and shows what changed meanwhile;
 * - approvals on two pages: time from the approval's creation on the host to both pages
 *   showing it, and from the answer to both pages showing it resolved.
 *
 * Run: npx pnpm build && node --expose-gc --import tsx tests/bench/stayingCurrent.ts
 * (also run by tests/bench/run.ts). `FREEZE_MS=5000` shortens the freeze for a quick look.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import { type StreamEvent, stateDataSchema } from '@webbridge/contract';
import { type RunningHost, startHost } from '@webbridge/host';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { assertWebBuilt, launchBrowser, PHONE } from '../browser/browserHarness';
import { freeze, launchCdpChromium, unfreeze } from '../browser/cdpChromium';
import { scriptedModels, seedConversation } from '../browser/scriptedModel';
import { openEvents, type SseEvent } from '../support/sseClient';
import { startTcpRelay } from '../support/tcpRelay';
import { printTable, quantile } from './table';

const CODE = 'bench-current-6v2k-9wq4';
const FREEZE_MS = Number(process.env.FREEZE_MS ?? 20_000);
const EXCHANGES = 240;
const WORDS = 600;
const HEARTBEAT_MS = 3_000;
const RUNS = 3;
const APPROVALS = 5;

interface Bench {
  readonly host: RunningHost;
  readonly url: string;
  readonly dataDir: string;
  auth(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

async function startBench(options: { heartbeatMs?: number; scripted?: boolean } = {}): Promise<Bench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-bench-current-'));
  const host = await startHost({
    dataDir,
    port: 0,
    hostname: '127.0.0.1',
    accessCode: CODE,
    echoDelayMs: 5,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    mediaTtlMs: 300_000,
    uploadLimit: 1024 * 1024,
    logLevel: 'silent',
    ...(options.scripted ? { providers: [scriptedModels(25)] } : {}),
  });
  return {
    host,
    url: `http://127.0.0.1:${host.address.port}`,
    dataDir,
    auth: (extra = {}) => ({ Authorization: `Bearer ${CODE}`, 'Content-Type': 'application/json', ...extra }),
    async close() {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs an action on the host's executor, as its own console would. */
function onHost<T>(bench: Bench, task: () => T): Promise<T> {
  return bench.host.controller.executor.run(task);
}

/** Resolves with Date.now() when `check` holds for the host's state (checked on every change). */
function whenHost(bench: Bench, check: () => boolean): Promise<number> {
  const { controller } = bench.host;
  return new Promise((resolve) => {
    const test = () => {
      if (!check()) return;
      unsubscribe();
      resolve(Date.now());
    };
    const unsubscribe = controller.subscribe(test);
    test();
  });
}

/**
 * Records in the page the wall-clock time (Date.now(), the same clock as this process) of the
 * first frame after `condition` (page-side JavaScript) holds, checked on every DOM change.
 */
async function markWhen(page: Page, name: string, condition: string): Promise<void> {
  await page.evaluate(`(() => {
    window.__marks ??= {};
    delete window.__marks[${JSON.stringify(name)}];
    const check = () => {
      if (${JSON.stringify(name)} in window.__marks || !(${condition})) return false;
      window.__marks[${JSON.stringify(name)}] = -1;
      requestAnimationFrame(() => { window.__marks[${JSON.stringify(name)}] = Date.now(); });
      observer.disconnect();
      return true;
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    check();
  })()`);
}

async function readMark(page: Page, name: string, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const at = Number(await page.evaluate(`window.__marks?.[${JSON.stringify(name)}] ?? -1`));
    if (at > 0) return at;
    if (Date.now() > deadline) {
      const seen = await page.evaluate(
        `JSON.stringify({ marks: window.__marks, visible: document.visibilityState, badge: document.querySelector('.badge')?.textContent, last: [...document.querySelectorAll('.message-assistant')].at(-1)?.className })`,
      );
      throw new Error(`${name}: not seen in ${timeoutMs} ms (${seen})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls page-side JavaScript until it is true (page.evaluate, which the page's CSP allows). */
async function waitInPage(page: Page, condition: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(`!!(${condition})`))) {
    if (Date.now() > deadline) throw new Error(`never true: ${condition}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const badgeIs = (status: string) => `document.querySelector('.badge[data-status="${status}"]') !== null`;
const badgeIsNot = (status: string) =>
  `(document.querySelector('.badge[data-status]')?.dataset.status ?? '${status}') !== '${status}'`;
const lastAssistantHas = (text: string) => `(() => {
  const all = document.querySelectorAll('.message-assistant');
  const last = all[all.length - 1];
  return !!last && last.classList.contains('status-complete') && last.textContent.includes(${JSON.stringify(text)});
})()`;

async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/#code=${CODE}`);
  await page.locator('.badge[data-status="live"]').waitFor({ timeout: 30_000 });
}

/** Bytes of the event streams a page opens from now on, read from the DevTools protocol. */
async function countEventBytes(cdp: CDPSession): Promise<() => number> {
  const streams = new Set<string>();
  let bytes = 0;
  let counting = false;
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', (event) => {
    if (counting && event.request.url.includes('/api/events')) streams.add(event.requestId);
  });
  cdp.on('Network.dataReceived', (event) => {
    if (streams.has(event.requestId)) bytes += event.encodedDataLength || event.dataLength;
  });
  return () => {
    if (!counting) {
      counting = true;
      return 0;
    }
    return bytes;
  };
}

/** Decodes a frame as the SDK does; undefined for heartbeats. */
function decode(frame: SseEvent): StreamEvent | undefined {
  if (frame.event !== 'state' && frame.event !== 'message') return undefined;
  const data = stateDataSchema.parse(JSON.parse(frame.data));
  if (!Array.isArray(data)) return data;
  const [base, text] = data;
  return { kind: 'append', seq: Number(frame.id), base, text };
}

function applied(state: SyncState | null, event: StreamEvent): SyncState {
  const result = applyEvent(state, event);
  if (result.kind !== 'applied') throw new Error(`refused: ${result.reason}`);
  return result.state;
}

const lastText = (sync: SyncState | null) => sync?.snapshot.conversations.messages.at(-1)?.text ?? '';

async function freezeDuringReply(): Promise<Record<string, string | number>[]> {
  const bench = await startBench({ scripted: true });
  const chromium = await launchCdpChromium();
  try {
    await seedConversation(bench.host, EXCHANGES);
    const page = chromium.browser.contexts()[0]!.pages()[0]!;
    await page.setViewportSize(PHONE);
    await openPage(page, bench.url);
    const cdp = await page.context().newCDPSession(page);
    const bytesSinceResume = await countEventBytes(cdp);
    // A second client beside the page, over plain HTTP: it stops reading when the page
    // freezes and resumes with Last-Event-ID when the page resumes, counting the bytes.
    const away = await openEvents(bench.url, bench.auth());
    let sync = applied(null, decode(await away.next())!);
    const words = Array.from({ length: WORDS }, (_, i) => `${['phone', 'pocket', 'tab', 'word'][i % 4]}${i}`);
    const reply = words.join(' ');
    const lastWord = words.at(-1)!;
    await onHost(bench, () => bench.host.controller.messages.send(`> ${reply}`));
    await waitInPage(
      page,
      `[...document.querySelectorAll('.message-assistant')].at(-1)?.textContent.includes('pocket5')`,
    );
    await markWhen(page, 'complete', lastAssistantHas(lastWord));
    await freeze(page, cdp);
    const frozenAt = Date.now();
    while (!lastText(sync).includes('pocket5')) {
      const event = decode(await away.next());
      if (event) sync = applied(sync, event);
    }
    away.close();
    let replyEndedAt = 0;
    void whenHost(bench, () => bench.host.controller.readState().conversations.run.state === 'idle').then(
      (at) => (replyEndedAt = at),
    );
    await new Promise((resolve) => setTimeout(resolve, FREEZE_MS));
    bytesSinceResume();
    const resumedAt = Date.now();
    await unfreeze(cdp);
    const back = await openEvents(
      bench.url,
      bench.auth({ 'Last-Event-ID': `${sync.snapshot.instanceId}.${sync.seq}` }),
    );
    let resumeBytes = 0;
    const kinds = new Set<string>();
    while (!(lastText(sync).endsWith(lastWord) && sync.snapshot.conversations.run.state === 'idle')) {
      const frame = await back.next(30_000);
      resumeBytes += frame.bytes;
      const event = decode(frame);
      if (!event) continue;
      kinds.add(event.kind);
      sync = applied(sync, event);
    }
    back.close();
    const shownAt = await readMark(page, 'complete');
    await page.locator('.badge[data-status="live"]').waitFor();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pageBytes = bytesSinceResume();
    const fresh = await openEvents(bench.url, bench.auth());
    const snapshotBytes = (await fresh.next()).bytes;
    fresh.close();
    const percent = (bytes: number) => `${((100 * bytes) / snapshotBytes).toFixed(1)} %`;
    return [
      {
        measure: `resume → complete reply on screen (${FREEZE_MS / 1000} s freeze, ${WORDS} words, ${EXCHANGES} exchanges)`,
        value: `${shownAt - resumedAt} ms`,
        target: '<= 1500 ms',
        note: replyEndedAt
          ? `reply ended ${((replyEndedAt - frozenAt) / 1000).toFixed(1)} s into the freeze`
          : 'reply still streaming at resume',
      },
      {
        measure: 'resumed stream (Last-Event-ID) / snapshot, same conversation',
        value: `${resumeBytes} / ${snapshotBytes} B = ${percent(resumeBytes)}`,
        target: '<= 10 %',
        note: `frames: ${[...kinds].join(', ')} (a client that stopped reading at the freeze)`,
      },
      {
        measure: "what the page's fresh stream carried after resume",
        value: `${pageBytes} B = ${percent(pageBytes)}`,
        target: '',
        note: "DevTools Network; the old socket's buffered frames arrive besides",
      },
    ];
  } finally {
    await chromium.close();
    await bench.close();
  }
}

async function lossAndReturn(): Promise<Record<string, string | number>[]> {
  const bench = await startBench({ heartbeatMs: HEARTBEAT_MS });
  const chromium = await launchCdpChromium();
  const relay = await startTcpRelay(bench.host.address.port);
  const loss: number[] = [];
  const back: number[] = [];
  try {
    const context: BrowserContext = chromium.browser.contexts()[0]!;
    const page = context.pages()[0]!;
    await page.setViewportSize(PHONE);
    for (let run = 0; run < RUNS; run++) {
      await openPage(page, `http://127.0.0.1:${relay.port}`);
      // Anywhere in the heartbeat cycle.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * HEARTBEAT_MS));
      await markWhen(page, 'notLive', badgeIsNot('live'));
      const cutAt = Date.now();
      relay.cut();
      loss.push((await readMark(page, 'notLive', 20_000)) - cutAt);

      // The browser learns it is offline; the host moves on meanwhile.
      await context.setOffline(true);
      await page.locator('.badge[data-status="offline"]').waitFor();
      const text = `while away ${run}`;
      const snapshot = bench.host.controller.readState();
      await onHost(bench, () => bench.host.controller.messages.send(text));
      await whenHost(bench, () => {
        const state = bench.host.controller.readState();
        return state.conversations.run.state === 'idle' && state !== snapshot;
      });
      await markWhen(page, 'current', `${badgeIs('live')} && ${lastAssistantHas(text)}`);
      const backAt = Date.now();
      relay.restore();
      await context.setOffline(false);
      back.push((await readMark(page, 'current', 20_000)) - backAt);
    }
  } finally {
    await chromium.close();
    await relay.close();
    await bench.close();
  }
  return [
    {
      measure: `silent loss → page stops claiming live (${HEARTBEAT_MS / 1000} s heartbeat, ${RUNS} runs)`,
      value: `median ${quantile(loss, 0.5)} ms, max ${Math.max(...loss)} ms`,
      target: `<= ${HEARTBEAT_MS + 5000} ms`,
      note: 'cut at a random point of the heartbeat cycle',
    },
    {
      measure: `network returns → live and current (${RUNS} runs)`,
      value: `median ${quantile(back, 0.5)} ms, max ${Math.max(...back)} ms`,
      target: '<= 1500 ms',
      note: 'relay forwards again + browser online; a reply arrived meanwhile',
    },
  ];
}

async function approvalSync(): Promise<Record<string, string | number>[]> {
  const bench = await startBench();
  const browser = await launchBrowser();
  const shown: number[] = [];
  const resolved: number[] = [];
  try {
    const pages: Page[] = [];
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await openPage(page, bench.url);
      pages.push(page);
    }
    const { controller } = bench.host;
    for (let run = 0; run < APPROVALS; run++) {
      const count = controller.readState().approvals.length;
      const selector = `main .approval[data-approval-id]`;
      for (const page of pages)
        await markWhen(page, 'shown', `document.querySelectorAll('${selector}').length > ${count}`);
      const created = whenHost(bench, () => controller.readState().approvals.length > count);
      await onHost(bench, () =>
        controller.messages.send(`/tool write_file {"path":"bench-${run}.txt","content":"x"}`),
      );
      const createdAt = await created;
      const times = await Promise.all(pages.map((page) => readMark(page, 'shown')));
      shown.push(Math.max(...times) - createdAt);

      const approval = controller.readState().approvals.at(-1)!;
      const gone = `document.querySelector('main .approval[data-approval-id="${approval.id}"]') === null`;
      for (const page of pages) await markWhen(page, 'resolved', gone);
      const answered = whenHost(
        bench,
        () => !controller.readState().approvals.some((a) => a.id === approval.id),
      );
      await onHost(bench, () => controller.approvals.approve(approval.id, 'allow'));
      const answeredAt = await answered;
      const done = await Promise.all(pages.map((page) => readMark(page, 'resolved')));
      resolved.push(Math.max(...done) - answeredAt);
      await whenHost(bench, () => controller.readState().conversations.run.state === 'idle');
    }
  } finally {
    await browser.close();
    await bench.close();
  }
  return [
    {
      measure: `approval created → shown on both pages (${APPROVALS} runs)`,
      value: `median ${quantile(shown, 0.5)} ms, max ${Math.max(...shown)} ms`,
      target: '<= 100 ms',
      note: 'host state changed → next frame with the card, slower page',
    },
    {
      measure: `approval answered → resolved on both pages (${APPROVALS} runs)`,
      value: `median ${quantile(resolved, 0.5)} ms, max ${Math.max(...resolved)} ms`,
      target: '<= 100 ms',
      note: 'answered on the host (another device) → next frame without the card',
    },
  ];
}

assertWebBuilt();
const rows = [...(await freezeDuringReply()), ...(await lossAndReturn()), ...(await approvalSync())];
printTable(`Staying current on a phone — Chromium ${PHONE.width}×${PHONE.height}, loopback`, rows);
