/**
 * The fake agent as a child process speaking ACP on stdio, as a real agent does. Run with
 * `node --import <tsx> fakeAgentChild.ts '<script JSON>'`, or `… fakeAgentChild.ts --script-file
 * <path>` for a script too large for one argument (Linux takes at most 128 KiB: a benchmark's
 * 5,000-line diff), or the script in the environment as FAKE_ACP_SCRIPT, or a file named by
 * FAKE_ACP_SCRIPT_FILE; {@link fakeAgentCommand} and {@link fakeAgentFileCommand} build the
 * command. Only JSON-RPC goes to stdout; a crash step writes stderr and exits.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { createFakeAgent } from './fakeAgent';
import type { FakeAgentScript, FakeSessionRecord } from './fakeAgentScript';

function readScript(): FakeAgentScript {
  if (process.argv[2] === '--script-file') {
    const file = process.argv[3];
    if (file === undefined) throw new Error('--script-file needs the path of a JSON script');
    return JSON.parse(readFileSync(file, 'utf8')) as FakeAgentScript;
  }
  const text =
    process.argv[2] ??
    process.env.FAKE_ACP_SCRIPT ??
    (process.env.FAKE_ACP_SCRIPT_FILE ? readFileSync(process.env.FAKE_ACP_SCRIPT_FILE, 'utf8') : '{}');
  return JSON.parse(text) as FakeAgentScript;
}

const script = readScript();
const saved =
  script.stateFile && existsSync(script.stateFile)
    ? (JSON.parse(readFileSync(script.stateFile, 'utf8')) as FakeSessionRecord[])
    : undefined;

const fake = createFakeAgent(saved ? { ...script, sessions: saved } : script, {
  crash(stderr, code) {
    // Pipes are synchronous on Linux, so the text is out before the exit.
    process.stderr.write(stderr);
    process.exit(code);
  },
  writeLine(line) {
    process.stdout.write(`${line}\n`);
  },
  onEvent(event) {
    if (script.logFile) appendFileSync(script.logFile, `${JSON.stringify(event)}\n`);
  },
  onSessions(sessions) {
    if (script.stateFile) writeFileSync(script.stateFile, JSON.stringify(sessions));
  },
});

const connection = fake.app.connect(
  acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  ),
);
process.stderr.write(`fake-agent ${process.pid} ready\n`);
void connection.closed.then(() => process.exit(0));
