import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Oas3Definition } from '@redocly/openapi-core';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@webbridge/contract';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { type ObservedResponse, responseProblems } from './responseProblems';
import { OPENAPI_FILE, THIRD_PARTY_TYPES_FILE, thirdPartyTypes } from './thirdPartyTypes';
import type { paths } from './thirdPartyTypes.generated';

// Everything below talks to the host only through what docs/openapi.json says: types that
// openapi-typescript generated from it and openapi-fetch, a client nobody here wrote.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const ARTIFACTS = new URL('../.artifacts/', import.meta.url);
const document = () => JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Oas3Definition;
const bearer = { Authorization: `Bearer ${TEST_CODE}` };

/** An openapi-fetch client that notes every response it gets, for checking against the document. */
function recordingClient(baseUrl: string) {
  const observed: ObservedResponse[] = [];
  const client = createClient<paths>({ baseUrl });
  client.use({
    async onResponse({ request, response }) {
      const contentType = response.headers.get('content-type');
      // An event stream never ends: its body is read by the test, not here.
      const json = contentType !== null && /[/+]json\b/.test(contentType);
      observed.push({
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        contentType,
        ...(json ? { body: await response.clone().json() } : {}),
      });
    },
  });
  return { client, observed };
}

/** The first frame of an event stream, then the stream is let go. */
async function firstFrame(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text.slice(0, text.indexOf('\n\n'));
}

describe('a third party with nothing but docs/openapi.json', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ echoDelayMs: 1 });
  });
  afterAll(() => h.close(true));

  it('gets from openapi-typescript the very types this test is compiled against', async () => {
    const generated = await thirdPartyTypes(OPENAPI_FILE);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(new URL('thirdPartyTypes.ts', ARTIFACTS), generated);
    // Equal to the committed copy, which `pnpm typecheck` compiles (strict flags) with this
    // file's calls: a compiler run here would only repeat that, at four seconds a run.
    expect(generated, 'run `pnpm docs:openapi`').toBe(readFileSync(THIRD_PARTY_TYPES_FILE, 'utf8'));
  });

  it('drives locale → state → events → send → upload → media, every response as the document says', async () => {
    const { client, observed } = recordingClient(h.url);

    const locale = await client.GET('/api/locale');
    expect(locale.data?.protocol).toBe(PROTOCOL_VERSION);
    expect(locale.response.headers.get(PROTOCOL_HEADER)).toBe(String(PROTOCOL_VERSION));

    const { data: state } = await client.GET('/api/state', { headers: bearer });
    if (state === undefined) throw new Error('no snapshot');

    const events = await client.GET('/api/events', { headers: bearer, parseAs: 'stream' });
    if (!events.data) throw new Error('no event stream');
    const frame = await firstFrame(events.data);
    expect(frame).toMatch(/^event: ?state$/m);
    expect(JSON.parse(/^data: ?(.*)$/m.exec(frame)?.[1] ?? 'null')).toMatchObject({ kind: 'snapshot' });

    const sent = await client.POST('/api/action', {
      headers: bearer,
      body: {
        action: 'send',
        text: 'hello from a generated client',
        sessionRevision: state.sessionRevision,
        conversationId: state.conversationId,
        projectId: state.projectId,
      },
    });
    expect(sent.data?.action).toBe('send');
    const moved = await client.POST('/api/action', {
      headers: bearer,
      body: {
        action: 'send',
        text: 'to a place that moved',
        sessionRevision: state.sessionRevision + 1000,
        conversationId: state.conversationId,
        projectId: state.projectId,
      },
    });
    expect(moved.error?.code).toBe('session_mismatch');
    const invalid = await client.POST('/api/action', {
      headers: bearer,
      body: { action: 'selectProject', projectId: '' },
    });
    expect(invalid.error?.code).toBe('invalid_request');

    // The echoed reply finishes, so the snapshots below carry whole messages.
    let replied = state;
    for (let tries = 0; tries < 200; tries++) {
      const { data } = await client.GET('/api/state', { headers: bearer });
      if (data === undefined) throw new Error('no snapshot');
      replied = data;
      if (data.conversations.messages.some((m) => m.role === 'assistant' && m.status === 'complete')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(replied.conversations.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const uploaded = await client.POST('/api/upload', {
      params: { query: { name: 'dot.png', conversationId: state.conversationId } },
      headers: { ...bearer, 'Content-Type': 'image/png' },
      body: new Blob([PNG], { type: 'image/png' }),
      // openapi-fetch serialises bodies as JSON unless told otherwise; bytes go as they are.
      bodySerializer: (body) => body,
    });
    expect(uploaded.response.status).toBe(201);
    const attachmentId = uploaded.data?.attachment.id;

    const { data: pending } = await client.GET('/api/state', { headers: bearer });
    const media = pending?.conversations.pending.find((a) => a.id === attachmentId)?.media;
    if (media === undefined) throw new Error('the upload is not pending');
    const file = await client.GET('/api/media', {
      params: { query: { id: media.id } },
      parseAs: 'arrayBuffer',
    });
    expect(Buffer.from(file.data ?? new ArrayBuffer(0)).equals(PNG)).toBe(true);
    expect(file.response.headers.get('content-type')).toBe('image/png');
    const head = await client.HEAD('/api/media', { params: { query: { id: media.id } } });
    expect(head.response.headers.get('content-length')).toBe(String(PNG.length));
    const gone = await client.GET('/api/media', { params: { query: { id: 'B'.repeat(22) } } });
    expect(gone.error?.code).toBe('not_found');

    // A service worker answers from a notification with a token; an unknown one is a 404.
    const token = await client.POST('/api/push/decide', {
      headers: { 'Content-Type': 'application/json' },
      body: { token: 'C'.repeat(22), decision: 'allow' },
    });
    expect(token.error?.code).toBe('not_found');

    const unauthorised = await client.GET('/api/state');
    expect(unauthorised.error?.code).toBe('unauthorized');
    expect(unauthorised.response.headers.get('www-authenticate')).toBe('Bearer');

    // Pairing: the typed code for a device credential, which then lists and forgets devices.
    const pairedByCode = await client.POST('/api/pair', { body: { code: TEST_CODE, name: 'Third party' } });
    const credential = pairedByCode.data?.credential;
    if (credential === undefined) throw new Error('not paired');
    const device = { Authorization: `Bearer ${credential}` };
    const listed = await client.GET('/api/devices', { headers: device });
    expect(listed.data?.current).toBe(pairedByCode.data?.device.id);
    const spent = await client.POST('/api/pair', { body: { token: 'D'.repeat(24), name: 'x' } });
    expect(spent.error?.code).toBe('unauthorized');
    const forgotten = await client.POST('/api/devices/forget', {
      headers: device,
      body: { deviceId: pairedByCode.data?.device.id ?? '' },
    });
    expect(forgotten.data?.forgotten).toBe(pairedByCode.data?.device.id);

    expect(await responseProblems(document(), observed)).toEqual([]);
    // Every operation of the document was exercised at least once.
    const operations = Object.entries(document().paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const seen = new Set(observed.map((o) => `${o.method} ${o.path}`));
    expect(operations.filter((operation) => !seen.has(operation))).toEqual([]);
  });

  it('needs the access code exactly where the document declares the Bearer scheme', async () => {
    for (const [path, item] of Object.entries(document().paths ?? {})) {
      for (const [method, operation] of Object.entries(item) as [string, { security?: unknown[] }][]) {
        const response = await fetch(`${h.url}${path}?name=x.txt&id=${'C'.repeat(22)}`, {
          method: method.toUpperCase(),
          ...(method === 'post' ? { body: 'x', headers: { 'Content-Type': 'text/plain' } } : {}),
        });
        await response.body?.cancel();
        const declared = (operation.security ?? []).length > 0;
        expect({ path, method, unauthorised: response.status === 401 }).toEqual({
          path,
          method,
          unauthorised: declared,
        });
      }
    }
  });

  it('finds what breaks the schemas (the check above is not vacuous)', async () => {
    const { client, observed } = recordingClient(h.url);
    await client.GET('/api/state', { headers: bearer });
    const [seen] = observed;
    if (seen === undefined) throw new Error('nothing observed');
    const snapshot = structuredClone(seen.body) as Record<string, unknown> & {
      conversations: { list: Record<string, unknown>[] };
    };
    delete snapshot.instanceId;
    const summary = snapshot.conversations.list[0];
    if (summary === undefined) throw new Error('no conversation');
    // Deep inside, behind two references (Snapshot, then ConversationSummary).
    summary.undocumented = true;
    const problems = await responseProblems(document(), [{ ...seen, body: snapshot }]);
    expect(problems.join('\n')).toMatch(/instanceId/);
    expect(problems.join('\n')).toMatch(/undocumented/);
  });
});
