import { readFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createBridgeClient } from '@webbridge/client-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { trustingFetch } from '../support/trustingFetch';

// Someone on the same Wi-Fi records every byte between a browser and the host. Over HTTPS the
// recording holds none of the secrets; over plain HTTP (the same scenario, the same relay) it
// holds all of them, which proves that the relay and the search really see the traffic.

const MESSAGE = 'the launch code is amber-falcon-4417';
const FILE = Buffer.from('confidential quarterly figures: 9,876,543\n');

/** A TCP relay to 127.0.0.1:`target` that keeps every byte in both directions. */
async function startRelay(
  target: number,
): Promise<{ port: number; recorded(): Buffer; close(): Promise<void> }> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(socket);
      });
    }
    client.on('data', (chunk: Buffer) => {
      chunks.push(Buffer.from(chunk));
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      chunks.push(Buffer.from(chunk));
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    recorded: () => Buffer.concat(chunks),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a person does through the relay with the real SDK: connect, upload a file, send a
 * message and watch the echo reply stream back, then open the file by its media id.
 */
async function chatThrough(baseUrl: string, fetchImpl: typeof fetch): Promise<{ mediaId: string }> {
  const client = createBridgeClient({
    baseUrl,
    accessCode: TEST_CODE,
    fetch: fetchImpl,
    uploadTransport: 'fetch',
  });
  const connection = client.connect();
  try {
    await waitFor(() => (client.store.getState().status === 'live' ? true : undefined), 10_000);
    const attachment = await client.upload(new Blob([FILE], { type: 'text/plain' }), 'figures.txt');
    const pending = await waitFor(() =>
      client.store.getState().snapshot?.conversations.pending.find((a) => a.id === attachment.id),
    );
    const media = await fetchImpl(client.mediaUrl(pending.media));
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer()).equals(FILE)).toBe(true);
    const outcome = await client.send(MESSAGE);
    expect(outcome.kind).toBe('done');
    await waitFor(() => {
      const snapshot = client.store.getState().snapshot;
      const last = snapshot?.conversations.messages.at(-1);
      return last?.role === 'assistant' &&
        last.status === 'complete' &&
        last.text.includes('amber-falcon-4417')
        ? true
        : undefined;
    }, 10_000);
    return { mediaId: pending.media.id };
  } finally {
    connection.close();
    await connection.done;
  }
}

/** The secrets a recording must not (TLS) or does (plain HTTP) contain. */
function secretsIn(recording: Buffer, mediaId: string): Record<string, boolean> {
  const text = recording.toString('latin1');
  return {
    accessCode: text.includes(TEST_CODE),
    message: text.includes('amber-falcon-4417'),
    file: text.includes('quarterly figures'),
    mediaId: text.includes(mediaId),
  };
}

let host: TestHost | undefined;
let relay: Awaited<ReturnType<typeof startRelay>> | undefined;
afterEach(async () => {
  await relay?.close();
  await host?.close(true);
  relay = undefined;
  host = undefined;
});

describe('a recording relay between the client and the host', () => {
  it('over HTTPS records neither the access code, nor the message, nor the file, nor a media id', async () => {
    host = await startTestHost({ tls: true, echoDelayMs: 2 });
    const ca = readFileSync(join(host.dataDir, 'tls', 'ca.crt'), 'utf8');
    relay = await startRelay(host.port);
    // https://127.0.0.1:<relay>: the certificate names 127.0.0.1, so the client verifies it
    // against the authority as usual; the relay only sees ciphertext.
    const { mediaId } = await chatThrough(`https://127.0.0.1:${relay.port}`, trustingFetch(ca));
    const recording = relay.recorded();
    // The traffic did go through the relay: TLS records, several kilobytes of them.
    expect(recording.length).toBeGreaterThan(4096);
    expect(recording[0]).toBe(0x16);
    expect(secretsIn(recording, mediaId)).toEqual({
      accessCode: false,
      message: false,
      file: false,
      mediaId: false,
    });
    expect(recording.toString('latin1')).not.toContain('Authorization');
  });

  it('over plain HTTP the same relay records all of them (so the test above can fail)', async () => {
    host = await startTestHost({ echoDelayMs: 2 });
    relay = await startRelay(host.port);
    const { mediaId } = await chatThrough(`http://127.0.0.1:${relay.port}`, fetch);
    expect(secretsIn(relay.recorded(), mediaId)).toEqual({
      accessCode: true,
      message: true,
      file: true,
      mediaId: true,
    });
  });
});
