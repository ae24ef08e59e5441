import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { contract, identityOf, isSensitiveAction, type Snapshot } from '@webbridge/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockBridge, type MockBridge } from '../../web/src/mocks/createMockBridge';
import { ACTIONS } from '../contract/agreementActions';
import { launchChromium } from '../support/chromium';

/**
 * `vite --mode mock` (pnpm dev:web) serves the page with no host: the bridge runs in the page,
 * behind MSW's service worker. Here a mock build (the same mode, built) is served by a plain
 * static server that answers every /api/ request 599, so an answer the page gets can only come
 * from the bridge in the page.
 */
const web = fileURLToPath(new URL('../../web/', import.meta.url));
const out = join(process.env.TMPDIR ?? '/tmp', `mock-build-${process.pid}`);
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };
const AUTH = { Authorization: 'Bearer mock' };

let server: Server;
let origin: string;
let browser: Browser;
const reachedNetwork: string[] = [];

beforeAll(async () => {
  await promisify(execFile)(
    join(web, '..', 'node_modules/.bin/vite'),
    ['build', '--mode', 'mock', '--outDir', out],
    {
      cwd: web,
    },
  );
  server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/api/')) {
      reachedNetwork.push(`${req.method} ${path}`);
      res.writeHead(599).end();
      return;
    }
    const file = path === '/' ? 'index.html' : path;
    const body = await readFile(join(out, file)).catch(() => undefined);
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // localhost: a secure context, so the page may have a service worker.
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** Opens the mock page with the mock's code; resolves once the chat shows. */
async function openMockPage(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${origin}/#code=mock`);
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return page;
}

/** What a client acts on: the status, and the action answered or the problem's code. */
type Outcome = { status: number; action?: string; code?: string };

/** Posts `body` from the page (through MSW to the bridge in it) and reads the outcome. */
function actInPage(page: Page, body: unknown): Promise<Outcome> {
  return page.evaluate(
    async ({ body, auth }) => {
      const response = await fetch('/api/action', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as { action?: string; code?: string };
      return response.ok
        ? { status: response.status, action: json.action ?? '' }
        : { status: response.status, code: json.code ?? '' };
    },
    { body, auth: AUTH },
  );
}

/** The state the bridge in the page answers. */
function stateInPage(page: Page): Promise<Snapshot> {
  return page.evaluate(
    async (auth) => (await fetch('/api/state', { headers: auth })).json() as Promise<Snapshot>,
    AUTH,
  );
}

/** The action's body with the session guard when the contract asks for one. */
function bodyOf(name: keyof typeof ACTIONS, state: Snapshot): unknown {
  const action = ACTIONS[name](state);
  const guarded = { ...action, ...identityOf(state) };
  return isSensitiveAction(guarded as never) ? guarded : action;
}

describe('the mock mode: the bridge in the page, behind MSW', () => {
  it('serves the page offline and streams a reply word by word', async () => {
    const page = await openMockPage();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('alpha beta gamma delta epsilon');
    await box.press('Enter');
    // Still streaming (Stop shown) while part of the echo is already on the page: not buffered.
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await page.getByText('alpha beta gamma delta epsilon').nth(1).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(reachedNetwork).toEqual([]);
  });

  it('asks for an approval on `/approve`, and an Allow from the page is recorded on the tool call', async () => {
    const page = await openMockPage();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/approve');
    await box.press('Enter');
    const card = page.locator('.message-assistant .approval');
    await card.waitFor();
    expect(await card.textContent()).toContain('write_file');
    await card.getByRole('button', { name: 'Allow' }).click();
    await page.locator('.message-tool .decision').waitFor();
    await expect.poll(() => card.count()).toBe(0);
    expect(reachedNetwork).toEqual([]);
  });

  it('edits a message from the page, then moves between its versions and regenerates a reply', async () => {
    const page = await openMockPage();
    await page.getByRole('button', { name: 'Edit' }).first().click();
    const editor = page.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('Show me a branch');
    await editor.press('Enter');
    // The edit and its echoed answer, on a new branch: the edited message is version 2 of 2.
    await page.getByText('Show me a branch').nth(1).waitFor();
    const position = page.locator('.branch-position');
    await expect.poll(() => position.allTextContents()).toEqual(['2/2']);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await page.getByRole('button', { name: 'Previous version' }).click();
    await page.getByText('These are').waitFor();
    await expect.poll(() => position.allTextContents()).toEqual(['1/2']);
    await page.getByRole('button', { name: 'Regenerate' }).click();
    // The reply made again is the second version of the reply, on the first version of the message.
    await expect.poll(() => position.allTextContents()).toEqual(['1/2', '2/2']);
    await page.getByText('What can you show me?').nth(1).waitFor();
    expect(reachedNetwork).toEqual([]);
  });

  it('takes an upload into the pending tray and serves it back as media, from memory', async () => {
    const page = await openMockPage();
    const served = await page.evaluate(async (auth) => {
      const upload = await fetch('/api/upload?name=note.txt', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'text/plain' },
        body: 'hello from the page',
      });
      if (upload.status !== 201) return `upload ${upload.status}`;
      const state = (await (await fetch('/api/state', { headers: auth })).json()) as {
        conversations: { pending: { name: string; media: { id: string } }[] };
      };
      const pending = state.conversations.pending.find((p) => p.name === 'note.txt');
      if (!pending) return 'not pending';
      const media = await fetch(`/api/media?id=${encodeURIComponent(pending.media.id)}`);
      return `${media.status} ${media.headers.get('content-type')} ${await media.text()}`;
    }, AUTH);
    expect(served).toBe('200 text/plain hello from the page');
    expect(reachedNetwork).toEqual([]);
  });

  it('answers every action of the contract as the same mock bridge answers it in Node', async () => {
    const page = await openMockPage();
    const node: MockBridge = createMockBridge();
    try {
      const viaNode: Record<string, Outcome> = {};
      const viaPage: Record<string, Outcome> = {};
      for (const name of Object.keys(ACTIONS) as (keyof typeof ACTIONS)[]) {
        const nodeResponse = await node.fetch(
          new Request(`http://localhost${contract.action.path}`, {
            method: 'POST',
            headers: { ...AUTH, 'Content-Type': 'application/json' },
            body: JSON.stringify(bodyOf(name, node.state() as Snapshot)),
          }),
        );
        const json = (await nodeResponse.json()) as { action?: string; code?: string };
        viaNode[name] = nodeResponse.ok
          ? { status: nodeResponse.status, action: json.action ?? '' }
          : { status: nodeResponse.status, code: json.code ?? '' };
        const pageState = await stateInPage(page);
        viaPage[name] = await actInPage(page, bodyOf(name, pageState));
        // Each action meets an idle host on both sides: a reply an action starts (send, an
        // edit, a regenerate) streams for its own time in each, and the next fork would race it.
        await expect.poll(() => node.state().conversations.run.state).toBe('idle');
        await expect.poll(async () => (await stateInPage(page)).conversations.run.state).toBe('idle');
      }
      expect(viaPage).toEqual(viaNode);
      // The mocks' branches: answered in the page, not refused as an app that only chats would.
      for (const name of ['branch', 'editMessage', 'regenerate'] as const)
        expect(viaPage[name], name).toEqual({ status: 200, action: name });
      for (const [name, outcome] of Object.entries(viaPage)) {
        if (outcome.status !== 200)
          expect(['not_found', 'not_applicable', 'workspace_forbidden'], name).toContain(outcome.code);
      }
      expect(reachedNetwork).toEqual([]);
    } finally {
      await node.close();
    }
  });
});
