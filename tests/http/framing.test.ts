import { connect, type Socket } from 'node:net';
import { MAX_JSON } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

/** One response read off a connection that may carry more. */
interface WireResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * A raw keep-alive connection: several requests on one socket, responses read one at a time
 * by their Content-Length, and how the server ended it (a FIN, or a reset that can throw away
 * a response the client had not read yet). It half-closes only when told to, like a browser
 * still sending a body after an early answer.
 */
class Wire {
  private buffered = Buffer.alloc(0);
  private wake: () => void = () => undefined;
  /** The server sent its FIN. */
  finReceived = false;
  /** The error the socket saw (ECONNRESET, EPIPE), if any. */
  error: string | undefined;
  closed = false;
  private readonly socket: Socket;

  constructor(port: number) {
    this.socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake();
    });
    this.socket.on('end', () => {
      this.finReceived = true;
      this.wake();
    });
    this.socket.on('error', (error: NodeJS.ErrnoException) => {
      this.error ??= error.code ?? error.message;
      this.wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  send(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed || this.error) return resolve();
      this.socket.write(data, () => resolve());
    });
  }

  /** Writes `total` bytes in chunks, stopping early if the connection fails. */
  async sendBody(total: number, chunk = 64 * 1024): Promise<number> {
    let sent = 0;
    while (sent < total && !this.error && !this.socket.destroyed) {
      const size = Math.min(chunk, total - sent);
      await this.send(Buffer.alloc(size, 0x61));
      sent += size;
    }
    return sent;
  }

  /** The next complete response, or undefined if the connection ends or stays silent first. */
  async response(timeoutMs = 5000): Promise<WireResponse | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.closed || this.finReceived || this.error || Date.now() > deadline) return undefined;
      await this.until(deadline);
    }
  }

  /** Waits for the server to end the connection: `fin`, `reset` or `open` (it did not). */
  async ending(timeoutMs = 5000): Promise<'fin' | 'reset' | 'open'> {
    const deadline = Date.now() + timeoutMs;
    while (!this.finReceived && !this.error && Date.now() <= deadline) await this.until(deadline);
    if (this.finReceived) {
      // Our own FIN now; a server that closed without reading what we sent resets instead of
      // finishing the close.
      this.socket.end();
      while (!this.closed && !this.error && Date.now() <= deadline) await this.until(deadline);
    }
    if (this.error) return 'reset';
    return this.finReceived ? 'fin' : 'open';
  }

  destroy(): void {
    this.socket.destroy();
  }

  private until(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private take(): WireResponse | undefined {
    const split = this.buffered.indexOf('\r\n\r\n');
    if (split === -1) return undefined;
    const [statusLine = '', ...lines] = this.buffered.subarray(0, split).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffered.length < split + 4 + length) return undefined;
    const body = this.buffered.subarray(split + 4, split + 4 + length).toString('utf8');
    this.buffered = this.buffered.subarray(split + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}

function problemCode(response: { body: string } | undefined): unknown {
  return response ? (JSON.parse(response.body) as { code?: unknown }).code : undefined;
}

describe('HTTP framing', () => {
  let h: TestHost;
  const wires: Wire[] = [];
  const wire = () => {
    const opened = new Wire(h.port);
    wires.push(opened);
    return opened;
  };
  beforeAll(async () => {
    h = await startTestHost({ uploadLimit: 64 * 1024 });
  });
  afterAll(async () => {
    for (const opened of wires) opened.destroy();
    await h.close(true);
  });

  const hostLine = () => `Host: 127.0.0.1:${h.port}`;
  const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
  const actionHead = (length: number, extra: string[] = []) =>
    head([
      'POST /api/action HTTP/1.1',
      hostLine(),
      `Authorization: Bearer ${TEST_CODE}`,
      'Content-Type: application/json',
      `Content-Length: ${length}`,
      ...extra,
    ]);
  const localeRequest = () => head(['GET /api/locale HTTP/1.1', hostLine()]);

  describe('a response sent before the request body was read', () => {
    it('an action body declared over MAX_JSON: 413 with Connection: close, then a FIN, not a reset', async () => {
      const w = wire();
      // Like a browser: the whole body follows the headers without waiting for an answer.
      await w.send(actionHead(MAX_JSON + 1));
      const sending = w.sendBody(MAX_JSON + 1);
      const response = await w.response();
      expect(response?.status).toBe(413);
      expect(problemCode(response)).toBe('payload_too_large');
      expect(response?.headers.connection).toBe('close');
      await sending;
      expect(await w.ending()).toBe('fin');
    });

    it('the next request on the same socket after an early 413 either succeeds or was told Connection: close', async () => {
      const w = wire();
      // Only the headers: a client that got its final answer early need not send the body.
      await w.send(actionHead(MAX_JSON + 1));
      const refused = await w.response();
      expect(refused?.status).toBe(413);
      if (refused?.headers.connection?.toLowerCase() === 'close') {
        expect(await w.ending()).toBe('fin');
        return;
      }
      await w.send(localeRequest());
      const next = await w.response();
      expect(next?.status).toBe(200);
    });

    it('an upload declared over the limit: 413 with Connection: close while the client is still sending, then a FIN', async () => {
      const w = wire();
      const declared = 4 * 1024 * 1024;
      await w.send(
        head([
          'POST /api/upload?name=big.bin HTTP/1.1',
          hostLine(),
          `Authorization: Bearer ${TEST_CODE}`,
          'Content-Type: application/octet-stream',
          `Content-Length: ${declared}`,
        ]),
      );
      const sending = w.sendBody(declared);
      const response = await w.response();
      expect(response?.status).toBe(413);
      expect(response?.headers.connection).toBe('close');
      expect(problemCode(response)).toBe('payload_too_large');
      expect(await sending).toBe(declared);
      expect(await w.ending()).toBe('fin');
      expect(w.error).toBeUndefined();
    });

    it('a 401 on a POST whose body was not sent yet says Connection: close', async () => {
      const w = wire();
      await w.send(
        head([
          'POST /api/action HTTP/1.1',
          hostLine(),
          'Content-Type: application/json',
          'Content-Length: 100',
        ]),
      );
      const response = await w.response();
      expect(response?.status).toBe(401);
      expect(response?.headers.connection).toBe('close');
      expect(await w.ending()).toBe('fin');
    });

    it('a request whose body was read keeps the connection for the next one', async () => {
      const w = wire();
      const body = JSON.stringify({ action: 'formatDisk' });
      await w.send(actionHead(Buffer.byteLength(body)));
      await w.send(body);
      const refused = await w.response();
      expect(refused?.status).toBe(400);
      expect(refused?.headers.connection).toBe('keep-alive');
      await w.send(localeRequest());
      expect((await w.response())?.status).toBe(200);
    });
  });

  describe('header lines past what the guards can see', () => {
    // Short lines, so the padding stays far below the header size limit (16 KiB).
    const filler = (count: number) => Array.from({ length: count }, () => 'X:1');

    it('1,100 filler lines, then a second Authorization: 431 problem+json', async () => {
      const response = await rawRequest(h.port, [
        'GET /api/state HTTP/1.1',
        hostLine(),
        'Connection: close',
        `Authorization: Bearer ${TEST_CODE}`,
        ...filler(1100),
        'Authorization: Bearer other',
      ]);
      expect(response.status).toBe(431);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.headers['x-webbridge-protocol']).toBe('1');
      expect(problemCode(response)).toBe('header_too_large');
    });

    it('150 header lines are refused; 50 are served', async () => {
      const many = await rawRequest(h.port, [
        'GET /api/locale HTTP/1.1',
        hostLine(),
        'Connection: close',
        ...filler(150),
      ]);
      expect(many.status).toBe(431);
      const some = await rawRequest(h.port, [
        'GET /api/locale HTTP/1.1',
        hostLine(),
        'Connection: close',
        ...filler(50),
      ]);
      expect(some.status).toBe(200);
    });
  });

  describe("refusals by Node's parser and the adapter", () => {
    const expectProblem = (response: WireResponse, status: number, code: string) => {
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.headers['x-webbridge-protocol']).toBe('1');
      expect(problemCode(response)).toBe(code);
    };

    it('HTTP/1.1 without Host: 400 problem+json', async () => {
      expectProblem(
        await rawRequest(h.port, ['GET /api/locale HTTP/1.1', 'Connection: close']),
        400,
        'invalid_request',
      );
    });

    it('HTTP/1.0 without Host: 400 problem+json', async () => {
      expectProblem(await rawRequest(h.port, ['GET /api/locale HTTP/1.0']), 400, 'invalid_request');
    });

    it('a request target that is not a path: 400 problem+json', async () => {
      for (const target of ['*', 'api/locale', '/api\\locale']) {
        const response = await rawRequest(h.port, [
          `GET ${target} HTTP/1.1`,
          hostLine(),
          'Connection: close',
        ]);
        expectProblem(response, 400, 'invalid_request');
      }
    });

    it("an Expect other than 100-continue is ignored, not answered with Node's bare 417", async () => {
      const response = await rawRequest(h.port, [
        'GET /api/locale HTTP/1.1',
        hostLine(),
        'Expect: something-else',
        'Connection: close',
      ]);
      expect(response.status).toBe(200);
    });

    it('CONNECT is answered with a problem, not a dropped connection', async () => {
      const response = await rawRequest(h.port, [
        'CONNECT example.com:443 HTTP/1.1',
        'Host: example.com:443',
      ]);
      expectProblem(response, 400, 'invalid_request');
    });

    it('a malformed request line: 400 problem+json', async () => {
      expectProblem(await rawRequest(h.port, ['GET /api/locale HTTP/9', hostLine()]), 400, 'invalid_request');
    });
  });

  describe('media types', () => {
    for (const type of [
      'APPLICATION/JSON; charset=utf-8',
      'Application/Json',
      'application/json;charset=UTF-8',
    ]) {
      it(`an action sent as ${type} is read`, async () => {
        const before = await getState(h);
        const response = await fetch(`${h.url}/api/action`, {
          method: 'POST',
          headers: h.auth({ 'Content-Type': type }),
          body: JSON.stringify({ action: 'newConversation', title: `typed ${type}` }),
        });
        expect(response.status, await response.clone().text()).toBe(200);
        const after = await getState(h);
        expect(after.conversations.list.length).toBe(before.conversations.list.length + 1);
      });
    }
  });

  describe('repeated query parameters', () => {
    it('/api/media?id=A&id=B is 400 invalid_request, A alone is served', async () => {
      const upload = await fetch(`${h.url}/api/upload?name=a.txt`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/plain' },
        body: 'hello',
      });
      expect(upload.status).toBe(201);
      const { attachment } = (await upload.json()) as { attachment: { id: string } };
      const media = (await act(h, { action: 'refreshMedia', attachmentId: attachment.id })).media as {
        id: string;
      };
      expect((await fetch(`${h.url}/api/media?id=${media.id}`)).status).toBe(200);
      for (const query of [`id=${media.id}&id=${'B'.repeat(22)}`, `id=${media.id}&id=${media.id}`]) {
        const response = await rawRequest(h.port, [
          `GET /api/media?${query} HTTP/1.1`,
          hostLine(),
          'Connection: close',
        ]);
        expect(response.status, query).toBe(400);
        expect(problemCode(response)).toBe('invalid_request');
      }
    });

    for (const query of ['name=a.txt&name=b.txt', 'name=a.txt&conversationId=x&conversationId=y']) {
      it(`/api/upload?${query} is 400 invalid_request`, async () => {
        const response = await fetch(`${h.url}/api/upload?${query}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/plain' },
          body: 'hello',
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { code: string }).code).toBe('invalid_request');
      });
    }
  });
});
