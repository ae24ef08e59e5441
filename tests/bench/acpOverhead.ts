/**
 * What the bridge adds over a direct ACP client, for an agent's streamed reply. The same
 * scripted fake agent (a child process, tests/support/acp) streams REPLY_WORDS message chunks
 * CHUNK_GAP_MS apart and logs when it sent each one. Direct: an SDK client on the agent's stdio
 * stamps each `agent_message_chunk` as it arrives. Through the bridge: a reference host in a
 * child process (acpOverheadHost.ts) runs the agent; this process is a phone (the client SDK
 * over HTTP and the event stream) that stamps each chunk once its store holds it. First chunk:
 * prompt or `send` → first chunk held. Per chunk: held − sent by the agent (same machine clock).
 * The phone's HTTP request is a hop a direct client does not make: its floor, one kept-alive
 * `GET /api/locale` (public, cached, no executor task) from the same process, is printed too.
 * Between the two, a minimal relay (acpRelayHost.ts: node:http, the ACP SDK, nothing else) in
 * the host's place gives the floor of that shape on this machine — the HTTP request and the
 * extra process woken each way — so the table splits what the bridge adds over a direct client
 * into that floor (relay − direct) and the bridge's own work (bridge − relay).
 * The three paths take turns for BENCH_ROUNDS rounds (3), each a new process with a warm-up turn.
 * Run: node --import tsx tests/bench/acpOverhead.ts (BENCH_ROUNDS, BENCH_TURNS, BENCH_WORDS, BENCH_GAP_MS)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { createBridgeClient } from '@webbridge/client-sdk';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import type { FakeAgentEvent, FakeAgentScript } from '../support/acp/fakeAgentScript';
import { spawnAgent } from '../support/acp/spawnAgent';
import { TEST_CODE } from '../support/testHost';
import { preciseNow, printTable, quantile } from './table';

const TURNS = Number(process.env.BENCH_TURNS ?? 16);
const REPLY_WORDS = Number(process.env.BENCH_WORDS ?? 100);
const CHUNK_GAP_MS = Number(process.env.BENCH_GAP_MS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Fixed-width words (' w0001'), so a text's length says how many chunks it holds. */
const WORD_WIDTH = 6;
const words = Array.from({ length: REPLY_WORDS }, (_, i) => ` w${String(i + 1).padStart(4, '0')}`);

interface TurnTimes {
  /** Prompt (or send) → first chunk held by the client, ms. */
  readonly first: number;
  /** Held − sent, ms, per chunk. */
  readonly perChunk: number[];
  /** Prompt (or send) → the agent has the prompt, ms. */
  readonly toAgent: number;
}

function scriptFor(logFile: string): FakeAgentScript {
  return {
    logFile,
    logChunks: true,
    turns: Array.from({ length: TURNS + 1 }, () => ({
      steps: [{ type: 'say' as const, text: words, delayMs: CHUNK_GAP_MS }],
    })),
  };
}

/** When the agent received each turn's `session/prompt`. */
function promptTimes(logFile: string): number[] {
  return readFileSync(logFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as FakeAgentEvent)
    .flatMap((event) =>
      event.type === 'received' && event.method === 'session/prompt' && event.at ? [event.at] : [],
    );
}

/** The agent's send times of each turn's chunks, from its log (turn t = the t-th run of indexes). */
function sentTimes(logFile: string): number[][] {
  const turns: number[][] = [];
  for (const line of readFileSync(logFile, 'utf8').trim().split('\n')) {
    const event = JSON.parse(line) as FakeAgentEvent;
    if (event.type !== 'chunk') continue;
    if (event.index === 0) turns.push([]);
    turns.at(-1)?.push(event.at);
  }
  return turns;
}

async function direct(folder: string, round: number): Promise<TurnTimes[]> {
  const logFile = join(folder, `direct-${round}.jsonl`);
  const received: number[] = [];
  // A bare SDK client: it stamps each chunk as its notification is dispatched.
  const app = acp
    .client({ name: 'bench' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk') received.push(preciseNow());
    });
  const agent = spawnAgent(fakeAgentCommand(scriptFor(logFile)), app, { cwd: folder });
  const client = agent.connection.agent;
  await client.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
  const { sessionId } = await client.request(acp.methods.agent.session.new, { cwd: folder, mcpServers: [] });
  const starts: number[] = [];
  for (let turn = 0; turn <= TURNS; turn += 1) {
    starts.push(preciseNow());
    await client.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'go' }],
    });
  }
  await agent.stop();
  return collect(starts, received, sentTimes(logFile), promptTimes(logFile));
}

/** The bench's children alive: whatever ends this process ends them (one set of handlers). */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(1));
}

/**
 * Starts a bench child (the host, or the relay) with the agent's script; resolves with the URL
 * it prints on its first stdout line. Whatever ends this process ends the child.
 */
async function startChild(
  file: string,
  script: FakeAgentScript,
): Promise<{ url: string; child: ChildProcess }> {
  const entry = fileURLToPath(new URL(file, import.meta.url));
  const { command, args } = fakeAgentCommand();
  const child = spawn(command, [args[0]!, args[1]!, entry, JSON.stringify(script)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n') && line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`${file} exited (${code})`)));
  });
  return { url, child };
}

async function stopChild(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  if (child.exitCode === null && child.signalCode === null)
    await new Promise((resolve) => child.once('exit', resolve));
}

/**
 * The same turns through acpRelayHost.ts: the bridge's processes and hops with none of its
 * work. This process is the phone: a `fetch` POST per prompt and one event stream, read with the
 * same parser as the client SDK, each chunk stamped as its event is parsed.
 */
async function relayed(folder: string, round: number): Promise<TurnTimes[]> {
  const logFile = join(folder, `relay-${round}.jsonl`);
  const { url, child } = await startChild('./acpRelayHost.ts', scriptFor(logFile));
  const received: number[] = [];
  let turnDone: (() => void) | undefined;
  const events = await fetch(`${url}/events`);
  if (!events.ok || !events.body) throw new Error(`GET /events: ${events.status}`);
  const reader = events.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      if (value.event === 'done') turnDone?.();
      else received.push(preciseNow());
    }
  })();
  const starts: number[] = [];
  for (let turn = 0; turn <= TURNS; turn += 1) {
    const done = new Promise<void>((resolve) => {
      turnDone = resolve;
    });
    starts.push(preciseNow());
    const response = await fetch(`${url}/prompt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'go' }),
    });
    await response.arrayBuffer();
    if (response.status !== 204) throw new Error(`POST /prompt: ${response.status}`);
    await done;
  }
  await reader.cancel();
  await reading;
  await stopChild(child);
  return collect(starts, received, sentTimes(logFile), promptTimes(logFile));
}

async function bridged(folder: string, round: number): Promise<{ turns: TurnTimes[]; requestMs: number[] }> {
  const logFile = join(folder, `bridge-${round}.jsonl`);
  const { url, child: host } = await startChild('./acpOverheadHost.ts', scriptFor(logFile));
  const phone = createBridgeClient({ baseUrl: url, accessCode: TEST_CODE });
  const connection = phone.connect();
  await phone.fetchState();
  await phone.action({ action: 'newConversation', agentId: 'fake' });
  const received: number[] = [];
  let from = 0;
  let turnReceived: number[] = [];
  let turnDone: (() => void) | undefined;
  const unsubscribe = phone.store.subscribe(() => {
    const messages = phone.store.getState().snapshot?.conversations.messages ?? [];
    const text = messages
      .slice(from)
      .filter((m) => m.role === 'assistant')
      .map((m) => m.text)
      .join('');
    const held = Math.floor(text.length / WORD_WIDTH);
    const now = preciseNow();
    while (turnReceived.length < held) turnReceived.push(now);
    const idle = phone.store.getState().snapshot?.conversations.run.state === 'idle';
    if (turnReceived.length >= REPLY_WORDS && idle) turnDone?.();
  });
  const starts: number[] = [];
  for (let turn = 0; turn <= TURNS; turn += 1) {
    from = phone.store.getState().snapshot?.conversations.messages.length ?? 0;
    turnReceived = [];
    const done = new Promise<void>((resolve) => {
      turnDone = resolve;
    });
    starts.push(preciseNow());
    let outcome = await phone.send('go');
    // The first send may meet the conversation switch the client has not seen yet (409).
    if (outcome.kind === 'session_changed') outcome = await phone.send('go', [], { to: outcome.destination });
    if (outcome.kind !== 'done') throw new Error(`send: ${JSON.stringify(outcome)}`);
    await done;
    received.push(...turnReceived.slice(0, REPLY_WORDS));
  }
  unsubscribe();
  // The floor of the phone's hop: the same fetch on the same kept-alive connection, with no action.
  const requestMs: number[] = [];
  for (let i = 0; i < 50; i += 1) {
    const start = preciseNow();
    const response = await fetch(new URL('api/locale', url.endsWith('/') ? url : `${url}/`));
    await response.text();
    if (!response.ok) throw new Error(`GET /api/locale: ${response.status}`);
    requestMs.push(preciseNow() - start);
  }
  connection.close();
  await stopChild(host);
  return { turns: collect(starts, received, sentTimes(logFile), promptTimes(logFile)), requestMs };
}

/** Pairs the i-th received chunk with the i-th sent one; turn 0 is a warm-up and dropped. */
function collect(starts: number[], received: number[], sent: number[][], prompts: number[]): TurnTimes[] {
  const turns: TurnTimes[] = [];
  for (let turn = 1; turn < starts.length; turn += 1) {
    const got = received.slice(turn * REPLY_WORDS, (turn + 1) * REPLY_WORDS);
    const sentTurn = sent[turn] ?? [];
    turns.push({
      first: (got[0] ?? Number.NaN) - starts[turn]!,
      toAgent: (prompts[turn] ?? Number.NaN) - starts[turn]!,
      perChunk: got.map((at, i) => at - (sentTurn[i] ?? Number.NaN)),
    });
  }
  return turns;
}

function row(path: string, turns: TurnTimes[]): Record<string, string | number> {
  const firsts = turns.map((t) => t.first);
  const chunks = turns.flatMap((t) => t.perChunk);
  return {
    path,
    turns: turns.length,
    'first chunk p50 ms': quantile(firsts, 0.5),
    'first chunk p90 ms': quantile(firsts, 0.9),
    'prompt reaches agent p50 ms': quantile(
      turns.map((t) => t.toAgent),
      0.5,
    ),
    'per chunk p50 ms': quantile(chunks, 0.5),
    'per chunk p90 ms': quantile(chunks, 0.9),
    'per chunk p99 ms': quantile(chunks, 0.99),
  };
}

/** `b − a`, key by key, for the numeric columns of two rows. */
function difference(path: string, a: Record<string, string | number>, b: Record<string, string | number>) {
  const added: Record<string, string | number> = { path, turns: '' };
  for (const key of Object.keys(a)) {
    if (typeof a[key] === 'number' && typeof b[key] === 'number' && key !== 'turns') {
      added[key] = (b[key] as number) - (a[key] as number);
    }
  }
  return added;
}

const folder = mkdtempSync(join(tmpdir(), 'acp-overhead-'));
try {
  // The three paths take turns, round after round, so that a machine getting busier or quieter
  // during the run weighs on all three alike (a shared machine drifts over a minute).
  const directTurns: TurnTimes[] = [];
  const relayTurns: TurnTimes[] = [];
  const bridgeTurns: TurnTimes[] = [];
  const requestMs: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    directTurns.push(...(await direct(folder, round)));
    relayTurns.push(...(await relayed(folder, round)));
    const through = await bridged(folder, round);
    bridgeTurns.push(...through.turns);
    requestMs.push(...through.requestMs);
  }
  const a = row('direct ACP client', directTurns);
  const r = row('minimal relay (the shape, no bridge)', relayTurns);
  const b = row('through the bridge', bridgeTurns);
  const own = difference("the bridge's own (bridge − relay)", r, b);
  printTable(
    `ACP agent → client: ${REPLY_WORDS} chunks ${CHUNK_GAP_MS} ms apart, ${ROUNDS} rounds of ${TURNS} turns after a warm-up, load ${loadavg()[0]!.toFixed(2)} at the end`,
    [
      a,
      r,
      b,
      difference('added by the bridge (bridge − direct)', a, b),
      difference("the shape's floor (relay − direct)", a, r),
      own,
    ],
  );
  printTable("The phone's hop alone: GET /api/locale on its kept-alive connection, 50 requests a round", [
    { p50: quantile(requestMs, 0.5), p90: quantile(requestMs, 0.9) },
  ]);
  const ownFirst = own['first chunk p50 ms'] as number;
  const ownChunk = own['per chunk p50 ms'] as number;
  console.log(
    `\nThe bridge's own work, p50 (target ≤ 2 ms): first chunk ${ownFirst.toFixed(2)} ms, per chunk ${ownChunk.toFixed(2)} ms` +
      ` — ${ownFirst <= 2 && ownChunk <= 2 ? 'met' : 'NOT met'}`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
