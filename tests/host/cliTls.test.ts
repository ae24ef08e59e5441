import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { trustingFetch } from '../support/trustingFetch';
import { CLI } from './cliProcess';

// The real `webbridge serve` off loopback: HTTPS by default with the local authority, the
// fingerprint and QR codes in the banner, and codes that never need the command line.

interface Served {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly url: string;
  readonly port: number;
}

const running = new Set<Served>();
const dirs: string[] = [];
afterEach(async () => {
  for (const served of running) {
    if (served.child.exitCode === null && served.child.signalCode === null) {
      const exited = new Promise((resolve) => served.child.once('exit', resolve));
      served.child.kill('SIGTERM');
      await exited;
    }
  }
  running.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'webbridge-cli-tls-'));
  dirs.push(dir);
  return dir;
}

/**
 * Starts `webbridge serve <args>` and waits until stdout holds `ready` (the banner is drawn),
 * with `env` added to this process's environment (minus any code variable of ours).
 */
async function serve(args: string[], env: Record<string, string> = {}, ready = /Scan to /): Promise<Served> {
  const { WEBBRIDGE_ACCESS_CODE: _a, WEBBRIDGE_VIEW_CODE: _v, ...base } = process.env;
  const child = spawn(CLI, ['serve', '--port', '0', '--no-console', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...base, ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const served = await new Promise<Served>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the CLI did not start: ${out}\n${err}`)), 15_000);
    const check = () => {
      const first = /^webbridge listening on (https?:\/\/127\.0\.0\.1:(\d+))\n/.exec(out);
      if (first && ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, stdout: () => out, stderr: () => err, url: first[1]!, port: Number(first[2]) });
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited (${code}): ${out}\n${err}`));
    });
  });
  running.add(served);
  // Everything printed after the ready line is flushed in the same tick; give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return served;
}

const lanIpv4 = Object.values(networkInterfaces())
  .flat()
  .filter((entry) => entry && !entry.internal && entry.family === 'IPv4')
  .map((entry) => entry!.address);

const cmdline = (pid: number | undefined) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

describe('webbridge serve --host 0.0.0.0', () => {
  it('speaks HTTPS with the local authority: https URLs, the fingerprint of ca.crt, https QR codes', async () => {
    const dir = dataDir();
    const code = 'env-code-3m8q-7v2x';
    const served = await serve(
      ['--host', '0.0.0.0', '--data-dir', dir],
      { WEBBRIDGE_ACCESS_CODE: code },
      /download: /,
    );
    const out = served.stdout();
    expect(served.url).toMatch(/^https:/);
    for (const address of lanIpv4)
      expect(out).toContain(`also reachable at https://${address}:${served.port}`);
    expect(out).not.toMatch(/^[^\n]*\bhttp:\/\/(?!.*ca\.crt)/m);

    const caPem = readFileSync(join(dir, 'tls', 'ca.crt'), 'utf8');
    const fingerprint = new X509Certificate(caPem).fingerprint256;
    expect(out).toContain(`SHA-256 fingerprint: ${fingerprint}`);
    expect(statSync(join(dir, 'tls', 'ca.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'tls', 'server.key')).mode & 0o777).toBe(0o600);
    // The QR code and the printed link open the https address with a one-time pairing token
    // in the fragment, never the code.
    expect(out).toMatch(/Scan to pair a device with https:\/\/\S+ \(one-time link/);
    expect(out).toMatch(/^ {2}https:\/\/\S+\/#pair=[\w-]{24}$/m);
    expect(out).not.toMatch(new RegExp(`#\\S*${code}`));
    expect(out).toMatch(/download: http:\/\/\S+\/ca\.crt/);
    expect(out).toContain(`access code: ${code}`);

    // The serving certificate names every address the host answers to.
    const leaf = new X509Certificate(readFileSync(join(dir, 'tls', 'server.crt'), 'utf8'));
    for (const address of ['127.0.0.1', ...lanIpv4])
      expect(leaf.subjectAltName).toContain(`IP Address:${address}`);
    expect(leaf.subjectAltName).toContain('DNS:localhost');

    const secure = trustingFetch(caPem);
    for (const base of [served.url, ...lanIpv4.map((a) => `https://${a}:${served.port}`)]) {
      const state = await secure(`${base}/api/state`, { headers: { Authorization: `Bearer ${code}` } });
      expect(state.status, base).toBe(200);
    }
    // The code came from the environment: nothing on the command line shows it.
    expect(cmdline(served.child.pid).join(' ')).not.toContain(code);
    expect(served.stderr()).not.toContain('warning');
  });

  it('--access-code-file: the code works and is not on the command line; --access-code warns', async () => {
    const dir = dataDir();
    const file = join(dir, 'code.txt');
    writeFileSync(file, 'file-code-9k2w-4p6z\n', { mode: 0o600 });
    const fromFile = await serve(['--host', '0.0.0.0', '--data-dir', dir, '--access-code-file', file]);
    expect(fromFile.stdout()).toContain('access code: file-code-9k2w-4p6z');
    expect(cmdline(fromFile.child.pid).join(' ')).not.toContain('file-code-9k2w-4p6z');
    const ca = readFileSync(join(dir, 'tls', 'ca.crt'), 'utf8');
    const state = await trustingFetch(ca)(`${fromFile.url}/api/state`, {
      headers: { Authorization: 'Bearer file-code-9k2w-4p6z' },
    });
    expect(state.status).toBe(200);
    expect(fromFile.stderr()).not.toContain('warning');

    const flagged = await serve(['--data-dir', dataDir(), '--access-code', 'flag-code-5t7y-1u3i']);
    expect(flagged.stderr()).toMatch(/warning: a code on the command line can be read by other local users/);
  });

  it('a generated code is kept (0600) and printed again on the next start', async () => {
    const dir = dataDir();
    const first = await serve(['--host', '0.0.0.0', '--data-dir', dir]);
    const code = /access code: (\S+)/.exec(first.stdout())?.[1];
    expect(code).toBeDefined();
    expect(statSync(join(dir, 'access-code')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'access-code'), 'utf8').trim()).toBe(code);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGTERM');
    await exited;

    // The authority's lines come after the QR codes: wait for them, not just for the first QR.
    const second = await serve(['--host', '0.0.0.0', '--data-dir', dir], {}, /SHA-256 fingerprint: \S+\n/);
    expect(/access code: (\S+)/.exec(second.stdout())?.[1]).toBe(code);
    // The same authority too: a phone that trusted it once keeps trusting it.
    expect(second.stdout()).toContain(
      `SHA-256 fingerprint: ${new X509Certificate(readFileSync(join(dir, 'tls', 'ca.crt'))).fingerprint256}`,
    );
  });

  it('--insecure-http serves plain HTTP and says so loudly', async () => {
    const dir = dataDir();
    const served = await serve(['--host', '0.0.0.0', '--data-dir', dir, '--insecure-http'], {
      WEBBRIDGE_ACCESS_CODE: 'plain-code-2b4n-6m8q',
    });
    expect(served.url).toMatch(/^http:/);
    expect(served.stdout()).toMatch(/WARNING: plain HTTP off loopback \(--insecure-http\)/);
    expect(served.stdout()).not.toContain('fingerprint');
    const state = await fetch(`${served.url}/api/state`, {
      headers: { Authorization: 'Bearer plain-code-2b4n-6m8q' },
    });
    expect(state.status).toBe(200);
  });
});
