/**
 * The host of acpOverhead.ts, in a child process so that the measuring client does not share
 * its event loop: a reference host (tests/support/testHost) whose agent `fake` is the scripted
 * fake agent as a child process. Prints `{"url": ...}` on one stdout line, stops on SIGTERM.
 * Run by acpOverhead.ts: node --import tsx tests/bench/acpOverheadHost.ts '<script JSON>'
 */
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import type { FakeAgentScript } from '../support/acp/fakeAgentScript';
import { startTestHost } from '../support/testHost';

const script = JSON.parse(process.argv[2] ?? '{}') as FakeAgentScript;
const host = await startTestHost({
  agents: {
    entries: [{ name: 'fake', ...fakeAgentCommand(script), env: {}, cwd: undefined, signIn: undefined }],
  },
});
process.stdout.write(`${JSON.stringify({ url: host.url })}\n`);
const stop = () => void host.close(true).then(() => process.exit(0));
process.once('SIGTERM', stop);
// The bench holds our stdin: when it dies, however, so do we.
process.stdin.on('end', stop).resume();
