import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';

/** A permission request the agent is waiting on; the test answers it. */
export interface PendingPermission {
  readonly params: acp.RequestPermissionRequest;
  /** Settles once answered. */
  readonly answered: Promise<acp.RequestPermissionOutcome>;
  /** Whether it has been answered. */
  readonly settled: boolean;
  /** Chooses the option of this kind (or this option id). */
  choose(kindOrId: acp.PermissionOptionKind | string): void;
  cancel(): void;
}

/** Options of {@link createRecordingClient}. */
export interface RecordingClientOptions {
  /**
   * File requests are served only inside this folder (written to disk); outside it they fail
   * with an ACP error, as the host must. Without it, file requests fail.
   */
  readonly root?: string;
  /** Answer every permission request at once with the option of this kind; default: the test answers. */
  readonly autoPermission?: acp.PermissionOptionKind;
  /** Answer pending permission requests `cancelled` when the client sends `session/cancel`. @default true */
  readonly cancelPermissionsOnCancel?: boolean;
}

/** A plain ACP client for tests: records everything, serves files and terminals in a root. */
export interface RecordingClient {
  readonly app: acp.ClientApp;
  /** Every session/update, in arrival order. */
  readonly updates: acp.SessionNotification[];
  readonly permissions: PendingPermission[];
  readonly writes: acp.WriteTextFileRequest[];
  readonly reads: acp.ReadTextFileRequest[];
  readonly terminals: acp.CreateTerminalRequest[];
  /** Resolves with the first non-undefined value of `pick` over the recorded state, re-checked on each event. */
  until<T>(pick: () => T | undefined, what: string, timeoutMs?: number): Promise<T>;
  /** The next permission request not yet answered. */
  nextPermission(timeoutMs?: number): Promise<PendingPermission>;
  /** The message text of a session so far (agent_message_chunk text, joined). */
  text(sessionId: string, kind?: 'agent_message_chunk' | 'agent_thought_chunk'): string;
  /** Answers the session's pending permissions `cancelled` (what a client does on `session/cancel`). */
  cancelPending(sessionId: string): void;
}

/**
 * An ACP client app that records what an agent sends and serves its requests the way the host
 * should: files and terminals only inside `root`, permission requests answered by the test.
 * Event-driven waits (`until`), no polling sleeps.
 */
export function createRecordingClient(options: RecordingClientOptions = {}): RecordingClient {
  const updates: acp.SessionNotification[] = [];
  const permissions: PendingPermission[] = [];
  const writes: acp.WriteTextFileRequest[] = [];
  const reads: acp.ReadTextFileRequest[] = [];
  const terminals: acp.CreateTerminalRequest[] = [];
  const waiters = new Set<() => void>();
  const running = new Map<string, RunningTerminal>();
  const handedOut = new Set<PendingPermission>();
  let terminalSequence = 0;
  const changed = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const inside = (path: string) => {
    if (!options.root) throw acp.RequestError.invalidRequest(undefined, 'This client serves no files');
    const full = resolve(path);
    const rel = relative(resolve(options.root), full);
    if (!isAbsolute(path) || rel.startsWith('..') || isAbsolute(rel)) {
      throw acp.RequestError.invalidParams(undefined, `Outside the workspace: ${path}`);
    }
    return full;
  };

  const app = acp
    .client({ name: 'recording-client' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      changed();
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      let settle!: (outcome: acp.RequestPermissionOutcome) => void;
      const answered = new Promise<acp.RequestPermissionOutcome>((resolveAnswer) => {
        settle = resolveAnswer;
      });
      let done = false;
      const answer = (outcome: acp.RequestPermissionOutcome) => {
        if (done) return;
        done = true;
        settle(outcome);
        changed();
      };
      const pending: PendingPermission = {
        params,
        answered,
        get settled() {
          return done;
        },
        choose(kindOrId) {
          const option = params.options.find((o) => o.kind === kindOrId || o.optionId === kindOrId);
          if (!option) throw new Error(`no option ${kindOrId} in ${JSON.stringify(params.options)}`);
          answer({ outcome: 'selected', optionId: option.optionId });
        },
        cancel: () => answer({ outcome: 'cancelled' }),
      };
      permissions.push(pending);
      if (options.autoPermission) pending.choose(options.autoPermission);
      changed();
      return answered.then((outcome) => ({ outcome }));
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      writes.push(params);
      changed();
      const full = inside(params.path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, params.content);
      return {};
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      reads.push(params);
      changed();
      let text: string;
      try {
        text = readFileSync(inside(params.path), 'utf8');
      } catch (error) {
        if (error instanceof acp.RequestError) throw error;
        throw acp.RequestError.resourceNotFound(params.path);
      }
      if (params.line == null && params.limit == null) return { content: text };
      const lines = text.split('\n');
      const start = Math.max(0, (params.line ?? 1) - 1);
      return {
        content: lines.slice(start, params.limit == null ? undefined : start + params.limit).join('\n'),
      };
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      terminals.push(params);
      changed();
      const cwd = inside(params.cwd ?? options.root ?? '/');
      const terminalId = `term-${++terminalSequence}`;
      running.set(terminalId, startTerminal(params, cwd));
      return { terminalId };
    })
    .onRequest(acp.methods.client.terminal.output, ({ params }) => {
      const terminal = terminalOf(running, params.terminalId);
      return { output: terminal.output, truncated: terminal.truncated, exitStatus: terminal.exit ?? null };
    })
    .onRequest(
      acp.methods.client.terminal.waitForExit,
      ({ params }) => terminalOf(running, params.terminalId).exited,
    )
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      terminalOf(running, params.terminalId).child.kill('SIGKILL');
      return {};
    })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      terminalOf(running, params.terminalId).child.kill('SIGKILL');
      running.delete(params.terminalId);
      return {};
    });

  const cancelPending = (sessionId: string) => {
    for (const pending of permissions) if (pending.params.sessionId === sessionId) pending.cancel();
  };

  return {
    app,
    updates,
    permissions,
    writes,
    reads,
    terminals,
    until: (pick, what, timeoutMs = 30_000) => until(waiters, pick, what, timeoutMs),
    async nextPermission(timeoutMs = 30_000) {
      const next = await until(
        waiters,
        () => permissions.find((p) => !handedOut.has(p) && !p.settled),
        'a permission request',
        timeoutMs,
      );
      handedOut.add(next);
      return next;
    },
    text: (sessionId, kind = 'agent_message_chunk') =>
      updates
        .filter((n) => n.sessionId === sessionId)
        .map((n) =>
          n.update.sessionUpdate === kind && n.update.content.type === 'text' ? n.update.content.text : '',
        )
        .join(''),
    cancelPending,
  };
}

function until<T>(
  waiters: Set<() => void>,
  pick: () => T | undefined,
  what: string,
  timeoutMs: number,
): Promise<T> {
  return new Promise<T>((resolveValue, reject) => {
    const check = () => {
      let value: T | undefined;
      try {
        value = pick();
      } catch (error) {
        finish();
        reject(error);
        return;
      }
      if (value === undefined) return;
      finish();
      resolveValue(value);
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      waiters.delete(check);
    };
    waiters.add(check);
    check();
  });
}

interface RunningTerminal {
  readonly child: ChildProcess;
  output: string;
  truncated: boolean;
  exit?: acp.TerminalExitStatus;
  readonly exited: Promise<acp.WaitForTerminalExitResponse>;
}

function startTerminal(params: acp.CreateTerminalRequest, cwd: string): RunningTerminal {
  const child = spawn(params.command, [...(params.args ?? [])], {
    cwd,
    env: { ...process.env, ...Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value])) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const limit = params.outputByteLimit ?? 1_000_000;
  const terminal: RunningTerminal = {
    child,
    output: '',
    truncated: false,
    exited: new Promise((resolveExit) => {
      child.once('close', (exitCode, signal) => {
        terminal.exit = { exitCode, signal };
        resolveExit({ exitCode, signal });
      });
      child.once('error', () => {
        terminal.exit = { exitCode: 127, signal: null };
        resolveExit({ exitCode: 127, signal: null });
      });
    }),
  };
  const take = (chunk: Buffer) => {
    terminal.output += chunk.toString('utf8');
    // Keeps the end, as ACP says: the output is truncated from the beginning.
    while (Buffer.byteLength(terminal.output) > limit) {
      terminal.output = terminal.output.slice(Math.max(1, terminal.output.length - limit));
      terminal.truncated = true;
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return terminal;
}

function terminalOf(running: Map<string, RunningTerminal>, terminalId: string): RunningTerminal {
  const terminal = running.get(terminalId);
  if (!terminal) throw acp.RequestError.resourceNotFound(terminalId);
  return terminal;
}
