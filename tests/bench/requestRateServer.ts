/**
 * The servers of tests/bench/requestRate.ts, each in a child process of its own so that its CPU
 * time is its own: `bare` is Hono on @hono/node-server answering a POST of JSON with JSON (the
 * framework's own floor); `webbridge` is the reference host with a second model, so a `model`
 * action can really switch. Prints `ready <port> <json>` when listening.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The access code of the measured host. */
export const RATE_CODE = 'rate-code-4k9p-2xq7';

async function bare(): Promise<void> {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  app.post('/echo', async (c) => c.json({ ok: true, got: await c.req.json() }));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`ready ${info.port} {}\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

async function webbridge(): Promise<void> {
  const { startHost, EchoModel } = await import('@webbridge/host');
  const second = new EchoModel();
  const other = {
    id: 'echo-b',
    models: second.models.map((m) => ({ ...m, id: 'echo-b', name: 'Echo B', provider: 'echo-b' })),
    followsToolResults: false,
    stream: second.stream.bind(second),
  };
  const host = await startHost({
    dataDir: mkdtempSync(join(tmpdir(), 'webbridge-rate-')),
    accessCode: RATE_CODE,
    port: 0,
    hostname: '127.0.0.1',
    staticDir: null,
    logLevel: 'silent',
    providers: [other],
    // The benchmark hammers one client address with valid codes only; no throttle is hit.
  });
  const state = host.controller.readState();
  const identity = {
    sessionRevision: state.sessionRevision,
    conversationId: state.conversationId,
    projectId: state.projectId,
    instanceId: state.instanceId,
  };
  process.stdout.write(`ready ${host.address.port} ${JSON.stringify(identity)}\n`);
  process.on('SIGTERM', () => void host.close().then(() => process.exit(0)));
}

if (process.argv[2] === 'bare') await bare();
else await webbridge();
