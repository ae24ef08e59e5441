import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BridgeClient, createBridgeClient, type StoreState } from '@webbridge/client-sdk';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMinimalHost } from '../../examples/minimal-host/src/startMinimalHost';
import { waitFor } from '../support/api';
import { launchChromium } from '../support/chromium';

type MinimalHost = Awaited<ReturnType<typeof startMinimalHost>>;
const CODE = 'example-code-4k9p';
const ARTIFACTS = join(import.meta.dirname, '..', '.artifacts');
const BUILT = join(import.meta.dirname, '..', '..', 'examples', 'minimal-host', 'dist', 'main.js');

/** Resolves with the first store state that satisfies `predicate`. */
const storeReaches = (client: BridgeClient, predicate: (s: StoreState) => boolean, timeoutMs = 5000) =>
  waitFor(() => (predicate(client.store.getState()) ? client.store.getState() : undefined), timeoutMs);
const lastMessage = (s: StoreState) => s.snapshot?.conversations.messages.at(-1);

describe('examples/minimal-host: an outside app embedding the bridge', () => {
  let app: MinimalHost;
  let client: BridgeClient;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startMinimalHost(CODE, { wordDelayMs: 10 }), launchChromium()]);
    client = createBridgeClient({ baseUrl: app.url, accessCode: CODE, retryDelayMs: 50 });
    client.connect({ backoff: { baseMs: 50, maxMs: 200 } });
    await storeReaches(client, (s) => s.status === 'live');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('streams the echo word by word into the SDK store, and answers the public locale', async () => {
    expect((await client.locale()).language).toBe('en');
    const seen = new Set<string>();
    const unsubscribe = client.store.subscribe((s) => {
      if (lastMessage(s)?.status === 'streaming') seen.add(lastMessage(s)!.text);
    });
    const text = 'one two three four five six seven eight';
    const outcome = await client.send(text);
    expect(outcome.kind).toBe('done');
    const done = await storeReaches(
      client,
      (s) => lastMessage(s)?.status === 'complete' && lastMessage(s)?.role === 'assistant',
    );
    unsubscribe();
    expect(lastMessage(done)?.text).toBe(text);
    expect(seen.size).toBeGreaterThan(2);
    expect(done.snapshot?.conversations.run.state).toBe('idle');
  });

  it('stops a streaming reply', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    await client.send(long);
    await storeReaches(client, (s) => s.snapshot?.conversations.run.state === 'streaming');
    const stopped = await client.stop();
    expect(stopped).toEqual({ kind: 'done', result: { stopped: true } });
    const after = await storeReaches(client, (s) => lastMessage(s)?.status === 'stopped');
    const partial = lastMessage(after)!.text;
    expect(long.startsWith(partial) && partial.length < long.length).toBe(true);
    expect(after.snapshot?.conversations.run.state).toBe('idle');
  });

  it('uploads a file that goes out with a send and reads back through its media id', async () => {
    const bytes = new TextEncoder().encode('hello from a file\n');
    const attachment = await client.upload(new Blob([bytes], { type: 'text/plain' }), 'note.txt');
    await storeReaches(client, (s) => s.snapshot?.conversations.pending.length === 1);
    expect((await client.send('with a file')).kind).toBe('done');
    const attached = (s: StoreState) =>
      s.snapshot?.conversations.messages.flatMap((m) => m.attachments).find((a) => a.id === attachment.id);
    const sent = await storeReaches(client, (s) => attached(s) !== undefined);
    const wire = attached(sent)!;
    expect(sent.snapshot?.conversations.pending).toEqual([]);
    const media = await fetch(client.mediaUrl(wire.media));
    expect(await media.text()).toBe('hello from a file\n');
    await storeReaches(client, (s) => s.snapshot?.conversations.run.state === 'idle');
  });

  it('refuses a send made against a conversation the app has just left (409), and it lands nowhere', async () => {
    const before = client.store.getState().snapshot!.conversationId;
    // The app's own UI opens a new conversation while the browser still shows the old one.
    const switched = app.host.runOnMain(() =>
      app.host.actions.newConversation({ action: 'newConversation' }),
    );
    const outcome = await client.send('misdirected');
    const { conversationId: created } = await switched;
    expect(outcome.kind).toBe('session_changed');
    if (outcome.kind !== 'session_changed') return;
    expect(outcome.error.status).toBe(409);
    expect(outcome.destination.conversationId).toBe(created);
    await app.host.runOnMain(() =>
      app.host.actions.selectConversation({ action: 'selectConversation', conversationId: before }),
    );
    const old = await storeReaches(client, (s) => s.snapshot?.conversationId === before);
    expect(old.snapshot?.conversations.messages.map((m) => m.text)).not.toContain('misdirected');
    expect(app.host.readState().conversations.list.map((c) => c.id)).toEqual([before, created]);
  });

  it('chats once from the web client in Chromium', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${app.url}/#code=${CODE}`);
    await page.locator('.badge[data-status="live"]').waitFor();
    await page.getByRole('button', { name: /New chat/ }).click();
    await expect.poll(() => page.locator('ul.conversations > li').count()).toBe(3);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello from Chromium, echoed back word by word');
    await box.press('Enter');
    const reply = page.locator('.message-assistant').last();
    await expect.poll(() => reply.getAttribute('class')).toContain('status-complete');
    expect(await reply.locator('.body').textContent()).toContain('echoed back word by word');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'minimal-host.png') });
    expect(problems).toEqual([]);
    await context.close();
  });

  // `pnpm test` builds every package first; this runs the example as an outside app would: its
  // own dist/, importing @webbridge/server and /contract through their package exports (dist/).
  it('runs from its build, against the packages as published, and never prints the code', async () => {
    expect(existsSync(BUILT), 'build the workspace first (pnpm run build)').toBe(true);
    const child = spawn(process.execPath, [BUILT], {
      env: { ...process.env, PORT: '0', WEBBRIDGE_ACCESS_CODE: CODE },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const url = await waitFor(() => /open (\S+)\/ /.exec(output)?.[1], 10_000);
      const state = await fetch(`${url}/api/state`, { headers: { authorization: `Bearer ${CODE}` } });
      expect(state.status).toBe(200);
      expect(((await state.json()) as { models: { current: string } }).models.current).toBe('echo');
      expect((await fetch(`${url}/`)).headers.get('content-type')).toContain('text/html');
    } finally {
      // SIGINT: the example closes the bridge and deletes its upload directory, then exits.
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    }
    // Neither standard output nor standard error ever carries the code: both are often logged.
    expect(output).toContain('minimal host: open http://127.0.0.1:');
    expect(output).not.toContain(CODE);
  });
});
