import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkServerIdentity, rootCertificates, connect as tlsConnect } from 'node:tls';
import { CLIENT_ADDRESS_HEADER, PROTOCOL_HEADER } from '@webbridge/contract';

/** One finding of {@link checkUrl}: a verdict and one line a person reads. */
export interface Finding {
  readonly verdict: 'ok' | 'warn' | 'fail' | 'skip';
  readonly line: string;
}

/** Options of {@link checkUrl}. */
export interface CheckUrlOptions {
  /** The access code, for the event stream; without it the stream is not checked. Never printed. */
  readonly accessCode?: string;
  /** An authority to trust besides the system's (a self-made one, a test's). PEM. */
  readonly ca?: string;
  /** Connect here instead of where DNS points (to check a proxy before its name resolves). */
  readonly connectTo?: string;
  /** How long to wait for the first event and a heartbeat. @default 40000 (two 15 s beats) */
  readonly waitMs?: number;
}

/** A first event later than this was held back by something between host and phone. */
const BUFFERED_AFTER_MS = 1_000;

/**
 * What a phone meets at `url` (the public URL, through the proxy or tailnet): whether the
 * certificate is valid for the name, whether the host answers to the name, which client
 * address the host believes, how soon the first event of a stream arrives (a buffering proxy
 * holds it back) and whether heartbeats pass. One finding each; the code is never printed.
 */
export async function checkUrl(url: string, options: CheckUrlOptions = {}): Promise<Finding[]> {
  const target = new URL(url);
  // Paths below are relative to the public URL, which may carry a base path.
  const base = new URL(target.href.endsWith('/') ? target.href : `${target.href}/`);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const name = target.hostname.replace(/^\[|\]$/g, '');
  const ca = options.ca === undefined ? undefined : [...rootCertificates, options.ca];
  const lookup = options.connectTo === undefined ? undefined : fixedLookup(options.connectTo);
  const findings: Finding[] = [];
  if (target.protocol === 'https:') findings.push(await certificateFinding(name, port, ca, lookup));
  else
    findings.push({
      verdict: 'warn',
      line: 'certificate: none (http): a phone gets no service worker, push or app',
    });
  const get = (path: string, headers: Record<string, string>) =>
    (target.protocol === 'https:' ? httpsRequest : httpRequest)(new URL(path.slice(1), base), {
      headers,
      ...(ca === undefined ? {} : { ca }),
      ...(lookup === undefined ? {} : { lookup }),
      // The certificate got its own finding; the others are about the host behind it.
      rejectUnauthorized: false,
    });

  const locale = await answer(get('/api/locale', {}), 10_000).catch((error: unknown) => error as Error);
  if (locale instanceof Error) {
    findings.push({
      verdict: 'fail',
      line: `host: no answer at ${base.href}api/locale (${locale.message})`,
    });
    return findings;
  }
  findings.push(hostFinding(locale, target.host));
  if (locale.statusCode !== 200) return findings;
  findings.push(addressFinding(locale));

  if (options.accessCode === undefined) {
    findings.push({
      verdict: 'skip',
      line: 'event stream: not checked (no access code: --data-dir or WEBBRIDGE_ACCESS_CODE)',
    });
    return findings;
  }
  findings.push(...(await streamFindings(get, options.accessCode, options.waitMs ?? 40_000)));
  return findings;
}

/** The verdict on the certificate the name's server presents. */
async function certificateFinding(
  name: string,
  port: number,
  ca: string[] | undefined,
  lookup: LookupFn | undefined,
): Promise<Finding> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: name,
      port,
      ...(isIP(name) === 0 ? { servername: name } : {}),
      ...(ca === undefined ? {} : { ca }),
      ...(lookup === undefined ? {} : { lookup }),
      rejectUnauthorized: false,
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('timed out')));
    socket.once('error', (error) =>
      resolve({
        verdict: 'fail',
        line: `certificate: no TLS connection to ${name}:${port} (${error.message})`,
      }),
    );
    socket.once('secureConnect', () => {
      const peer = socket.getPeerCertificate();
      const mismatch = checkServerIdentity(name, peer);
      const until = peer.valid_to;
      socket.end();
      if (mismatch !== undefined) {
        resolve({ verdict: 'fail', line: `certificate: not valid for ${name} (${mismatch.message})` });
      } else if (!socket.authorized) {
        resolve({
          verdict: 'fail',
          line: `certificate: a phone will not trust it (${String(socket.authorizationError)})`,
        });
      } else {
        resolve({ verdict: 'ok', line: `certificate: valid for ${name}, trusted, until ${until}` });
      }
    });
  });
}

/** Whether the host answered to the public name. */
function hostFinding(locale: Answer, host: string): Finding {
  if (locale.statusCode === 200 && locale.headers[PROTOCOL_HEADER.toLowerCase()] !== undefined)
    return { verdict: 'ok', line: `host: answers to ${host}` };
  if (locale.statusCode === 403 && locale.body.includes('forbidden_host'))
    return {
      verdict: 'fail',
      line: `host: refuses the name ${host}: start it with --public-url https://${host}`,
    };
  return {
    verdict: 'fail',
    line: `host: /api/locale answered ${locale.statusCode} without the bridge's protocol header: is the proxy forwarding to it?`,
  };
}

/** Which client address the host believed, against the address this machine used. */
function addressFinding(locale: Answer): Finding {
  const seen = unmapped(String(locale.headers[CLIENT_ADDRESS_HEADER.toLowerCase()] ?? ''));
  const mine = unmapped(locale.localAddress);
  if (seen === '')
    return { verdict: 'warn', line: 'client address: the host does not say which it saw (older host?)' };
  if (seen === mine && isLoopback(seen))
    return {
      verdict: 'warn',
      line: `client address: the host saw ${seen}, which is also the proxy's side here: cannot tell whether --trust-proxy is set; check from another machine`,
    };
  if (seen === mine)
    return {
      verdict: 'ok',
      line: `client address: the host saw this machine's ${seen} (forwarding believed)`,
    };
  return {
    verdict: 'warn',
    line: `client address: the host saw ${seen}, not this machine's ${mine}: if ${seen} is the proxy, add --trust-proxy ${seen} (else every phone shares one throttle)`,
  };
}

/** The first event's delay (buffering) and a heartbeat's arrival, on a short event stream. */
async function streamFindings(
  get: (path: string, headers: Record<string, string>) => ReturnType<typeof httpRequest>,
  code: string,
  waitMs: number,
): Promise<Finding[]> {
  const started = performance.now();
  const req = get('/api/events', { Authorization: `Bearer ${code}`, Accept: 'text/event-stream' });
  return new Promise((resolve) => {
    const findings: Finding[] = [];
    let text = '';
    let firstAt: number | undefined;
    let beatAt: number | undefined;
    const finish = () => {
      clearTimeout(timer);
      req.destroy();
      if (firstAt === undefined) {
        findings.push({
          verdict: 'fail',
          line: `first event: nothing within ${waitMs} ms: something between the host and the phone buffers the stream`,
        });
      } else if (beatAt === undefined) {
        findings.push({
          verdict: 'fail',
          line: `heartbeat: none within ${waitMs} ms: held back, or the stream was cut`,
        });
      } else {
        findings.push({
          verdict: 'ok',
          line: `heartbeat: arrived ${Math.round(beatAt - firstAt)} ms after the first event`,
        });
      }
      resolve(findings);
    };
    const timer = setTimeout(finish, waitMs);
    req.once('error', (error) => {
      findings.push({ verdict: 'fail', line: `event stream: ${error.message}` });
      firstAt ??= Number.NaN;
      finish();
    });
    req.once('response', (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        findings.push({
          verdict: 'fail',
          line: `event stream: answered ${res.statusCode} (is the access code right?)`,
        });
        firstAt = Number.NaN;
        beatAt = Number.NaN;
        res.resume();
        finish();
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        const now = performance.now();
        if (firstAt === undefined && /\n\n/.test(text)) {
          firstAt = now;
          const delay = Math.round(now - started);
          findings.push(
            delay > BUFFERED_AFTER_MS
              ? {
                  verdict: 'fail',
                  line: `first event: after ${delay} ms: the stream is buffered (the host sends it at once)`,
                }
              : { verdict: 'ok', line: `first event: after ${delay} ms (not buffered)` },
          );
        }
        if (firstAt !== undefined && beatAt === undefined && /(^|\n)event: ?heartbeat\n/.test(text)) {
          beatAt = now;
          finish();
        }
      });
      res.once('end', finish);
    });
    req.end();
  });
}

/** A response, read whole. */
interface Answer {
  readonly statusCode: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly localAddress: string;
}

function answer(req: ReturnType<typeof httpRequest>, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.once('error', reject);
    req.once('response', (res) => {
      // Read now: the socket may be handed back (or gone) by the end of the body.
      const localAddress = res.socket?.localAddress ?? '';
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (body.length < 65_536) body += chunk;
      });
      res.once('end', () =>
        resolve({
          statusCode: res.statusCode ?? 0,
          headers: res.headers,
          body,
          localAddress,
        }),
      );
    });
    req.end();
  });
}

type LookupFn = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** A lookup that answers `address` for every name. */
function fixedLookup(address: string): LookupFn {
  const family = isIP(address) === 6 ? 6 : 4;
  return (_hostname, options, callback) => {
    if (isIP(address) === 0) {
      dnsLookup(address, { all: true }, (error, found) =>
        options.all || error
          ? callback(error, found)
          : callback(null, found[0]?.address ?? '', found[0]?.family),
      );
      return;
    }
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function unmapped(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.');
}

/** The findings as the lines `webbridge check-url` prints. */
export function formatFindings(findings: readonly Finding[]): string {
  const label = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;
  return findings.map((f) => `${label[f.verdict]}  ${f.line}`).join('\n');
}
