import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Writes a small ACP agent (the SDK's agent side, run by Node as a child process) into `dir`
 * and returns its path. Each prompt's text is a command that makes it misbehave or use the
 * client's capabilities, so one script covers the process tests:
 *
 * - `hello`: two message chunks, `end_turn`;
 * - `crash`: a line on stderr, then exit 3 in the middle of the turn;
 * - `oversize N`: a stdout line of N bytes; `garbage`: a stdout line that is not JSON;
 * - `stderr N`: N lines on stderr, then `end_turn`;
 * - `grandchild`: starts `sleep 300` (same process group), answers its pid;
 * - `env`: answers the names of its environment variables;
 * - `read P` / `write P TEXT` / `term CMD...`: `fs/read_text_file`, `fs/write_text_file`,
 *   `terminal/create` + `wait_for_exit` + `output`; answers the result (or the error) as JSON.
 *
 * `session/new` answers "authentication required" when the agent runs with `AUTH=1`, or while
 * the file `SIGNED_IN_FILE` names does not exist; with
 * `GARBAGE_FIRST=1` it writes a line that is not JSON to stdout before anything else.
 */
export function writeStdioAgent(dir: string): string {
  const sdk = pathToFileURL(createRequire(import.meta.url).resolve('@agentclientprotocol/sdk')).href;
  const file = path.join(dir, 'stdio-agent.mjs');
  fs.writeFileSync(file, SCRIPT.replace('__SDK__', sdk));
  return file;
}

const SCRIPT = `
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream, RequestError } from '__SDK__';

const say = (client, sessionId, text) =>
  client.notify(methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
  });
const attempt = async (run) => {
  try {
    return JSON.stringify({ ok: await run() });
  } catch (error) {
    return JSON.stringify({ error: { code: error.code, message: error.message } });
  }
};

const app = agent({ name: 'stdio-agent' })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: 1,
    agentInfo: { name: 'stdio-agent', version: '0.0.1' },
    agentCapabilities: { loadSession: false },
    authMethods: process.env.AUTH === '1' ? [{ id: 'login', name: 'Log in', description: 'run stdio-agent login' }] : [],
  }))
  .onRequest(methods.agent.session.new, () => {
    if (process.env.AUTH === '1') throw RequestError.authRequired();
    if (process.env.SIGNED_IN_FILE && !existsSync(process.env.SIGNED_IN_FILE)) throw RequestError.authRequired();
    return { sessionId: 'sess-' + Math.random().toString(36).slice(2) };
  })
  .onNotification(methods.agent.session.cancel, () => {})
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const [command, ...rest] = text.split(' ');
    const id = params.sessionId;
    switch (command) {
      case 'hello':
        await say(client, id, 'Hello');
        await say(client, id, ' world');
        break;
      case 'crash':
        process.stderr.write('boom: the agent fell over\\n');
        setTimeout(() => process.exit(3), 20);
        await new Promise(() => {});
        break;
      case 'oversize':
        process.stdout.write('{"jsonrpc":"2.0","method":"x","params":"' + 'a'.repeat(Number(rest[0])) + '"}\\n');
        await new Promise(() => {});
        break;
      case 'garbage':
        process.stdout.write('this is not json\\n');
        await new Promise(() => {});
        break;
      case 'stderr':
        for (let i = 0; i < Number(rest[0]); i++) process.stderr.write('line ' + i + '\\n');
        break;
      case 'grandchild': {
        const child = spawn('sleep', ['300'], { stdio: 'ignore' });
        await say(client, id, String(child.pid));
        break;
      }
      case 'env':
        await say(client, id, Object.keys(process.env).sort().join(','));
        break;
      case 'read':
        await say(client, id, await attempt(() => client.request(methods.client.fs.readTextFile, { sessionId: id, path: rest[0] })));
        break;
      case 'write':
        await say(client, id, await attempt(() => client.request(methods.client.fs.writeTextFile, { sessionId: id, path: rest[0], content: rest.slice(1).join(' ') })));
        break;
      case 'term':
        await say(client, id, await attempt(async () => {
          const limit = Number(process.env.TERM_LIMIT ?? 0) || undefined;
          const { terminalId } = await client.request(methods.client.terminal.create, { sessionId: id, command: rest[0], args: rest.slice(1), outputByteLimit: limit });
          const exit = await client.request(methods.client.terminal.waitForExit, { sessionId: id, terminalId });
          const output = await client.request(methods.client.terminal.output, { sessionId: id, terminalId });
          await client.request(methods.client.terminal.release, { sessionId: id, terminalId });
          return { exit, output };
        }));
        break;
      default:
        await say(client, id, 'unknown: ' + text);
    }
    return { stopReason: 'end_turn' };
  });

if (process.env.GARBAGE_FIRST === '1') process.stdout.write('Starting the agent...\\n');
app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
`;
