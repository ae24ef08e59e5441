/**
 * The floor of acpOverhead.ts: the smallest program with the bridge's shape — a phone's HTTP
 * request in, an ACP agent's chunks out on an event stream — and none of the bridge (no
 * access code, no contract, no executor, no SQLite, no snapshot or deltas). Its processes,
 * pipes and sockets are the bridge's: the bench process is the phone, this process sits where
 * the host does, and its child is the same scripted fake agent. What it adds over a direct ACP
 * client is what that shape costs on the machine (an HTTP request, one more process to wake
 * each way); what the bridge adds over it is the bridge's own work.
 *
 * POST /prompt sends `session/prompt` and answers 204 once the prompt is on its way (as the
 * bridge answers a `send`); GET /events is `text/event-stream`: `data: <text>` per message
 * chunk, `event: done` when a prompt's turn ended. Prints `{"url": ...}` on one stdout line.
 * Run by acpOverhead.ts: node --import tsx tests/bench/acpRelayHost.ts '<script JSON>'
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as acp from '@agentclientprotocol/sdk';
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import type { FakeAgentScript } from '../support/acp/fakeAgentScript';
import { spawnAgent } from '../support/acp/spawnAgent';

const script = JSON.parse(process.argv[2] ?? '{}') as FakeAgentScript;
const streams = new Set<ServerResponse>();
const broadcast = (frame: string) => {
  for (const stream of streams) stream.write(frame);
};

const app = acp.client({ name: 'relay' }).onNotification(acp.methods.client.session.update, ({ params }) => {
  const { update } = params;
  if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
    broadcast(`data: ${JSON.stringify(update.content.text)}\n\n`);
  }
});
const agent = spawnAgent(fakeAgentCommand(script), app, { cwd: process.cwd() });
const connection = agent.connection.agent;
await connection.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
const { sessionId } = await connection.request(acp.methods.agent.session.new, {
  cwd: process.cwd(),
  mcpServers: [],
});

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    res.flushHeaders();
    streams.add(res);
    req.on('close', () => streams.delete(res));
    return;
  }
  if (req.method === 'POST' && req.url === '/prompt') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { text } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string };
      const turn = connection.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text }],
      });
      res.writeHead(204).end();
      turn.then(
        () => broadcast('event: done\ndata: end_turn\n\n'),
        (error: unknown) => broadcast(`event: done\ndata: ${JSON.stringify(String(error))}\n\n`),
      );
    });
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

const stop = () => {
  for (const stream of streams) stream.end();
  server.close();
  void agent.stop().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
// The bench holds our stdin: when it dies, however, so do we.
process.stdin.on('end', stop).resume();
