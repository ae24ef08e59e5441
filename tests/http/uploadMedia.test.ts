import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotEventSchema } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, problemOf } from '../support/api';
import { rawRequest } from '../support/rawHttp';
import { openEvents } from '../support/sseClient';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function uploadFiles(h: TestHost): string[] {
  try {
    return readdirSync(join(h.dataDir, 'uploads'));
  } catch {
    return [];
  }
}

describe('upload and media', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ mediaTtlMs: 400, uploadLimit: 64 * 1024 });
  });
  afterAll(() => h.close(true));

  it('an upload becomes a pending attachment served by media GET and HEAD until the id expires', async () => {
    const response = await fetch(`${h.url}/api/upload?name=dot.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(response.status).toBe(201);
    const { attachment } = (await response.json()) as {
      attachment: { id: string; size: number; type: string };
    };
    expect(attachment).toMatchObject({ size: PNG.length, type: 'image/png' });

    const state = await getState(h);
    const pending = state.conversations.pending.find((a) => a.id === attachment.id);
    expect(pending?.media.id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const url = `${h.url}/api/media?id=${pending!.media.id}`;

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG.length));
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(head.headers.get('cache-control')).toBe('private, no-store');
    expect(head.headers.get('x-content-type-options')).toBe('nosniff');

    const get = await fetch(url);
    expect(get.status).toBe(200);
    expect(Buffer.from(await get.arrayBuffer()).equals(PNG)).toBe(true);

    await new Promise((r) => setTimeout(r, 500));
    const expired = await fetch(url);
    expect(expired.status).toBe(404);
    const unknown = await fetch(`${h.url}/api/media?id=${'B'.repeat(22)}`);
    expect(unknown.status).toBe(404);
    expect(await expired.text()).toBe(await unknown.text());

    // A fresh snapshot re-issues a valid id; so does refreshMedia.
    const again = await getState(h);
    const renewed = again.conversations.pending.find((a) => a.id === attachment.id)!.media.id;
    expect(renewed).not.toBe(pending!.media.id);
    expect((await fetch(`${h.url}/api/media?id=${renewed}`)).status).toBe(200);
    const refreshed = await act(h, { action: 'refreshMedia', attachmentId: attachment.id });
    const media = refreshed.media as { id: string };
    expect((await fetch(`${h.url}/api/media?id=${media.id}`)).status).toBe(200);
  });

  it('a stream opened after the ids expired gets fresh ones, even when nothing changed since', async () => {
    const upload = await fetch(`${h.url}/api/upload?name=again.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(upload.status).toBe(201);
    const pendingId = async () => {
      const stream = await openEvents(h.url, h.auth());
      const first = snapshotEventSchema.parse(JSON.parse((await stream.next()).data));
      stream.close();
      return first.snapshot.conversations.pending.at(-1)!.media.id;
    };
    const early = await pendingId();
    expect((await fetch(`${h.url}/api/media?id=${early}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    const late = await pendingId();
    expect(late).not.toBe(early);
    expect((await fetch(`${h.url}/api/media?id=${late}`)).status).toBe(200);
  });

  it('an HTML upload is served as a sandboxed download, never as a page', async () => {
    const response = await fetch(`${h.url}/api/upload?name=x.html`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/html' },
      body: '<script>alert(1)</script>',
    });
    const { attachment } = (await response.json()) as { attachment: { id: string } };
    const media = (await act(h, { action: 'refreshMedia', attachmentId: attachment.id })).media as {
      id: string;
    };
    const served = await fetch(`${h.url}/api/media?id=${media.id}`);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('an upload over the limit while streaming, or cut short, leaves no file and no attachment', async () => {
    const before = await getState(h);
    const filesBefore = uploadFiles(h).length;
    // Declares 1000 bytes, sends 10 and hangs up: an aborted upload.
    await rawRequest(
      h.port,
      [
        'POST /api/upload?name=liar.bin HTTP/1.1',
        `Host: 127.0.0.1:${h.port}`,
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Type: application/octet-stream',
        'Content-Length: 1000',
        'Connection: close',
      ],
      Buffer.alloc(10),
      300,
    ).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    expect(uploadFiles(h).length).toBe(filesBefore);
    expect((await getState(h)).conversations.pending.length).toBe(before.conversations.pending.length);
  });

  it('partial files left by an earlier run are removed at start', async () => {
    const { mkdirSync, writeFileSync, existsSync } = await import('node:fs');
    const other = await startTestHost();
    const dataDir = other.dataDir;
    await other.close();
    mkdirSync(join(dataDir, 'uploads'), { recursive: true });
    const stale = join(dataDir, 'uploads', '.crashed-upload.part');
    writeFileSync(stale, 'half a file');
    const again = await startTestHost({ dataDir });
    try {
      expect(existsSync(stale)).toBe(false);
    } finally {
      await again.close(true);
    }
  });

  it('an upload stays with the conversation it names, even after the host has moved on', async () => {
    const seen = await getState(h);
    // The host switches to a new conversation while the browser's person still sees `seen`.
    await act(h, { action: 'newConversation' });
    const upload = (conversationId: string) =>
      fetch(`${h.url}/api/upload?name=notes.txt&conversationId=${encodeURIComponent(conversationId)}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/plain' },
        body: 'for the first conversation',
      });
    const response = await upload(seen.conversationId);
    expect(response.status).toBe(201);
    const { attachment } = (await response.json()) as { attachment: { id: string } };
    const now = await getState(h);
    expect(now.conversationId).not.toBe(seen.conversationId);
    expect(now.conversations.pending.map((a) => a.id)).not.toContain(attachment.id);
    await act(h, { action: 'selectConversation', conversationId: seen.conversationId });
    expect((await getState(h)).conversations.pending.map((a) => a.id)).toContain(attachment.id);

    // A conversation the host does not know: 404, and the received file is not kept.
    const before = uploadFiles(h).length;
    const unknown = await upload('no-such-conversation');
    expect(unknown.status).toBe(404);
    expect((await problemOf(unknown)).code).toBe('not_found');
    expect(uploadFiles(h).length).toBe(before);
  });

  it('a conversationId no id can be is 400; any other reaches the host, whatever its shape', async () => {
    const upload = (conversationId: string) =>
      fetch(`${h.url}/api/upload?name=a.txt&conversationId=${encodeURIComponent(conversationId)}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/plain' },
        body: 'x',
      });
    for (const bad of ['tab\there', 'x'.repeat(201)]) {
      const response = await upload(bad);
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(problem.code).toBe('invalid_request');
      expect(problem.issues?.[0]?.path).toEqual(['conversationId']);
    }
    // Another host may shape its ids otherwise: the bridge passes them on (this host does not
    // know them: 404 from the host, not 400 from the bridge).
    for (const foreign of ['conv:1.a', 'a/b c']) {
      const response = await upload(foreign);
      expect(response.status).toBe(404);
      expect((await problemOf(response)).code).toBe('not_found');
    }
  });

  it('a missing name is 400 invalid_request', async () => {
    const response = await fetch(`${h.url}/api/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe('invalid_request');
  });
});
