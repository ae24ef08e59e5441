import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback proxy in front of a host that can act just before an action reaches it. */
export interface ActionTap {
  /** Where the page is opened instead of the host. */
  readonly url: string;
  /** What happened, in order (`sent send`, `answered 409`, …), to say when a step did not come. */
  readonly seen: string[];
  close(): Promise<void>;
}

/** What else the tap may do. */
export interface TapOptions {
  /**
   * Holds each upload's answer this long after the host gave it, so the host's pending list
   * reaches the page first (as it often does in Firefox). @default 0
   */
  readonly uploadAnswerDelayMs?: number;
}

/**
 * Starts a proxy to `target` (an `http://127.0.0.1:port` host) that runs `before` with each
 * POST /api/action's parsed body before forwarding it, and passes everything else (the page,
 * the event stream) through untouched. It does in every engine what Playwright's `page.route`
 * does in Chromium alone: make the host change between a page's decision and its arrival.
 * The host accepts the proxy's Host header (127.0.0.1 on another port): it checks names only.
 */
export async function startActionTap(
  target: string,
  before: (action: { action?: unknown }) => Promise<void>,
  options: TapOptions = {},
): Promise<ActionTap> {
  const upstream = new URL(target);
  const seen: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const isAction = incoming.method === 'POST' && incoming.url === '/api/action';
        if (isAction) {
          try {
            const action = JSON.parse(body.toString('utf8')) as { action?: unknown };
            seen.push(`sent ${String(action.action)}`);
            await before(action);
          } catch (error) {
            seen.push(`tap failed: ${String(error)}`);
          }
        }
        const forward = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: incoming.method,
            path: incoming.url,
            headers: incoming.headers,
          },
          (answer) => {
            if (isAction) seen.push(`answered ${answer.statusCode}`);
            const isUpload = incoming.url?.startsWith('/api/upload') ?? false;
            const delay = isUpload ? (options.uploadAnswerDelayMs ?? 0) : 0;
            setTimeout(() => {
              if (isUpload) seen.push(`upload answered ${answer.statusCode}`);
              outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(outgoing);
            }, delay);
          },
        );
        forward.on('error', () => outgoing.destroy());
        // A page that goes away (reload, close) must not leave the host's stream open.
        outgoing.on('close', () => forward.destroy());
        forward.end(body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
