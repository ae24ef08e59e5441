import { PROBLEM_CONTENT_TYPE } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createBridgeClient } from './client';
import { jsonResponse, scriptedFetch } from './testing/fakeFetch';
import { installFakeXhr } from './testing/fakeXhr';

const attachment = { id: 'att1', name: 'photo.png', type: 'image/png', size: 10 };
const file = new Blob([new Uint8Array(10)], { type: 'image/png' });
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

function clientWith(uploadTransport?: 'auto' | 'fetch') {
  const scripted = scriptedFetch([() => jsonResponse(201, { attachment })]);
  const client = createBridgeClient({
    baseUrl: 'http://bridge.test',
    accessCode: 'k7-plum',
    fetch: scripted.fetch,
    ...(uploadTransport === undefined ? {} : { uploadTransport }),
  });
  return { client, fetchRequests: scripted.requests };
}

describe('upload transport', () => {
  it('keeps XMLHttpRequest progress by default even when a custom fetch is given', async () => {
    const xhr = installFakeXhr({
      status: 201,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ attachment }),
      progress: [3, 7],
    });
    restore = xhr.restore;
    const { client, fetchRequests } = clientWith();
    const progress: number[][] = [];
    const result = await client.upload(file, 'photo.png', { onProgress: (l, t) => progress.push([l, t]) });
    expect(result).toEqual(attachment);
    expect(fetchRequests).toHaveLength(0);
    expect(xhr.requests).toHaveLength(1);
    expect(xhr.requests[0]).toMatchObject({
      method: 'POST',
      url: 'http://bridge.test/api/upload?name=photo.png',
      headers: { authorization: 'Bearer k7-plum', 'content-type': 'image/png' },
    });
    expect(progress).toEqual([
      [3, 10],
      [7, 10],
      [10, 10],
    ]);
  });

  it("uses the custom fetch with uploadTransport 'fetch', reporting progress once at the end", async () => {
    const xhr = installFakeXhr({ status: 500, body: '' });
    restore = xhr.restore;
    const { client, fetchRequests } = clientWith('fetch');
    const progress: number[][] = [];
    expect(await client.upload(file, 'photo.png', { onProgress: (l, t) => progress.push([l, t]) })).toEqual(
      attachment,
    );
    expect(xhr.requests).toHaveLength(0);
    expect(fetchRequests).toHaveLength(1);
    expect(fetchRequests[0]?.body).toBe(file);
    expect(progress).toEqual([[10, 10]]);
  });

  it('falls back to fetch where XMLHttpRequest does not exist (Node)', async () => {
    expect('XMLHttpRequest' in globalThis).toBe(false);
    const { client, fetchRequests } = clientWith('auto');
    expect(await client.upload(file, 'photo.png')).toEqual(attachment);
    expect(fetchRequests).toHaveLength(1);
  });

  it('carries Retry-After of a refused XMLHttpRequest upload', async () => {
    const xhr = installFakeXhr({
      status: 429,
      headers: { 'content-type': PROBLEM_CONTENT_TYPE, 'Retry-After': '12' },
      body: JSON.stringify({
        type: 'https://webbridge.dev/problems/rate_limited',
        title: 'Too many requests',
        status: 429,
        detail: 'slow down',
        code: 'rate_limited',
      }),
    });
    restore = xhr.restore;
    const { client } = clientWith();
    await expect(client.upload(file, 'photo.png')).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfterSeconds: 12,
    });
  });

  it('aborts an XMLHttpRequest upload through the signal', async () => {
    const xhr = installFakeXhr({ status: 201, body: JSON.stringify({ attachment }) });
    restore = xhr.restore;
    const { client } = clientWith();
    const controller = new AbortController();
    const pending = client.upload(file, 'photo.png', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });
});
