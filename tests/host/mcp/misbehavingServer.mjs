// A stdio MCP server that misbehaves on purpose, speaking raw JSON-RPC lines (no SDK, so it
// can say what the SDK never would). `node misbehavingServer.mjs <mode>`:
//   garbage   prints non-JSON on stdout and its env var NOISY_SECRET on stderr, then exits 1
//   badtools  answers initialize, then a tool list that is not a list
//   odd       a proper server with tools `bad` (answers a result of the wrong shape),
//             `stuck` (blocks its event loop: no answer, no ping), `slow` (answers after 10 s
//             unless cancelled; a cancellation is appended to the file in $CANCEL_LOG with
//             its reason) and `fine`
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.argv[2];
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

if (mode === 'garbage') {
  process.stdout.write('this is not json\n{"half": \n');
  process.stderr.write(`starting with secret ${process.env.NOISY_SECRET}\nfatal: cannot go on\n`);
  process.exit(1);
}

const tools = [
  { name: 'bad', description: 'Answers garbage', inputSchema: { type: 'object' } },
  { name: 'stuck', description: 'Never answers', inputSchema: { type: 'object' } },
  { name: 'slow', description: 'Answers late', inputSchema: { type: 'object' } },
  { name: 'fine', description: 'Answers', inputSchema: { type: 'object', properties: {} } },
];
const slow = new Map();

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'notifications/cancelled') {
    const { requestId, reason } = message.params;
    clearTimeout(slow.get(requestId));
    if (slow.delete(requestId)) appendFileSync(process.env.CANCEL_LOG, `cancelled ${requestId}: ${reason}\n`);
  }
  if (message.id === undefined) return;
  const { id, method } = message;
  if (method === 'initialize') {
    send({
      id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'misbehaving', version: '1.0.0' },
      },
    });
  } else if (method === 'tools/list') {
    send({ id, result: mode === 'badtools' ? { tools: 'none, sorry' } : { tools } });
  } else if (method === 'ping') {
    send({ id, result: {} });
  } else if (method === 'tools/call') {
    const name = message.params.name;
    if (name === 'bad') send({ id, result: { content: [{ type: 'text' }] } });
    else if (name === 'stuck') for (;;);
    else if (name === 'slow') {
      slow.set(
        id,
        setTimeout(() => send({ id, result: { content: [{ type: 'text', text: 'late' }] } }), 10_000),
      );
    } else send({ id, result: { content: [{ type: 'text', text: 'fine' }] } });
  } else {
    send({ id, error: { code: -32601, message: 'Method not found' } });
  }
});
