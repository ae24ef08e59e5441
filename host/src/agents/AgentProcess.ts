import { type ChildProcess, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { Agent as AgentStatus } from '@webbridge/contract';
import { backoffDelay } from '../mcp/backoffDelay';
import { AgentConnection, type AgentInfo } from './AgentConnection';
import type { AgentAppEntry, AgentCommandEntry } from './AgentEntry';
import { AgentError } from './AgentError';
import type { AgentLog } from './AgentLog';
import { agentLaunch } from './agentLaunch';
import { StderrTail } from './StderrTail';
import { type WorkspaceAccess, WorkspaceClient, type WorkspaceClientLimits } from './WorkspaceClient';

/** Timings and limits of agent processes; tests shorten them. */
export interface AgentTuning {
  /** Longest wait from spawn to the `initialize` answer. @default 60000 */
  readonly startTimeoutMs?: number;
  /** Longest wait for an answer other than a prompt's (`session/new`, `load`, ...). @default 120000 */
  readonly requestTimeoutMs?: number;
  /** First pause before a crashed agent is started again; it doubles with each crash. @default 1000 */
  readonly backoffInitialMs?: number;
  /** Longest pause between restarts. @default 300000 */
  readonly backoffMaxMs?: number;
  /** Between SIGTERM to the process group and SIGKILL. @default 1000 */
  readonly killGraceMs?: number;
  /** Most bytes of one message from an agent. @default 16 MiB */
  readonly maxMessageBytes?: number;
  /** Files and terminals served to agents. */
  readonly workspace?: WorkspaceClientLimits;
}

/** The defaults of {@link AgentTuning}. */
const DEFAULT_AGENT_TUNING = {
  startTimeoutMs: 60_000,
  requestTimeoutMs: 120_000,
  backoffInitialMs: 1_000,
  backoffMaxMs: 300_000,
  killGraceMs: 1_000,
  maxMessageBytes: 16 * 1024 * 1024,
} as const;

/** Where a failure message goes on with the agent's last stderr lines. */
const TAIL_MARK = ' Its last output: ';
/** A failed agent asked for within this long of its next start is started at once. */
const SOON_MS = 2_000;
/** An agent that stayed up this long starts its backoff from the beginning after a crash. */
const STABLE_MS = 60_000;

/** What {@link AgentProcess} needs from its registry. */
export interface AgentProcessContext {
  readonly authoriser: WorkspaceAccess;
  readonly log: AgentLog;
  readonly tuning: AgentTuning;
  /** Called after every change of {@link AgentProcess.status}. */
  readonly onChange: () => void;
}

/** One run of the agent: its child (none in-process), stderr tail and connection once initialised. */
interface Run {
  readonly child: ChildProcess | undefined;
  readonly tail: StderrTail;
  /** Resolves when the child has exited (at once in-process). */
  readonly exited: Promise<string>;
  connection: AgentConnection | undefined;
}

/**
 * One configured agent and its process: started on first use, `initialize`d, and kept. A
 * process that exits, breaks JSON-RPC or sends an oversize message is `failed` (calls in flight
 * end with a readable error and the tail of its stderr) and is started again after a growing
 * pause. Its stderr goes to the host log line by line, never to clients. It runs detached in a
 * process group of its own, which `close` ends whole (SIGTERM, then SIGKILL).
 *
 * An agent that answers "authentication required" is `needs_sign_in`, with what to run on the
 * host; it keeps running, and is `ready` again once a session opens.
 */
export class AgentProcess {
  readonly entry: AgentCommandEntry | AgentAppEntry;
  private readonly context: AgentProcessContext;
  private readonly tuning: Required<Omit<AgentTuning, 'workspace'>>;
  private state: AgentStatus['state'] = 'idle';
  private reason: string | undefined;
  private signIn: string | undefined;
  private infoNow: AgentInfo | undefined;
  private run: Run | undefined;
  private starting: Promise<AgentConnection> | undefined;
  private failures = 0;
  private readySince = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryAt = 0;
  private closed = false;

  constructor(entry: AgentCommandEntry | AgentAppEntry, context: AgentProcessContext) {
    this.entry = entry;
    this.context = context;
    this.tuning = { ...DEFAULT_AGENT_TUNING, ...withoutUndefined(context.tuning) };
  }

  get name(): string {
    return this.entry.name;
  }

  /** What `initialize` said, once the agent has started. */
  get info(): AgentInfo | undefined {
    return this.infoNow;
  }

  /** The agent as the snapshot lists it. */
  status(): AgentStatus {
    const info = this.infoNow;
    return {
      name: this.name,
      builtin: false,
      state: this.state,
      // `agentInfo.name` is a fallback display name (ACP), when it says more than the configured name.
      ...(info?.title ? { title: info.title } : info && info.name !== this.name ? { title: info.name } : {}),
      ...(info?.version ? { version: info.version } : {}),
      ...(this.reason !== undefined && (this.state === 'failed' || this.state === 'needs_sign_in')
        ? { reason: this.reason }
        : {}),
      ...(this.state === 'needs_sign_in' && this.signIn !== undefined ? { signIn: this.signIn } : {}),
    };
  }

  /**
   * The live connection, starting the agent when it is not running. Rejects with an
   * {@link AgentError} (`unavailable`) while it is failed and waiting for its next start, or
   * when it cannot start.
   */
  connection(): Promise<AgentConnection> {
    if (this.closed)
      return Promise.reject(new AgentError('unavailable', `The agent "${this.name}" was stopped.`));
    const live = this.run?.connection;
    if (live?.alive) return Promise.resolve(live);
    if (this.starting) return this.starting;
    if (this.state === 'failed' && this.retryTimer !== undefined) {
      const wait = this.retryAt - Date.now();
      // Someone wants it now and the pause is nearly over: start it rather than refuse.
      if (wait > SOON_MS) {
        const why = this.reason ?? `The agent "${this.name}" failed.`;
        return Promise.reject(
          new AgentError('unavailable', `${why} It restarts in ${Math.ceil(wait / 1000)} s.`),
        );
      }
    }
    return this.start();
  }

  /**
   * Ends the current process (if any; requests in flight reject) and starts a fresh one now,
   * with the backoff from the beginning: after signing in on the host, or to unstick it.
   */
  restart(): void {
    if (this.closed) return;
    this.failures = 0;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const run = this.run;
    this.run = undefined;
    this.starting = undefined;
    if (run) void this.stop(run);
    this.start().catch(() => {});
  }

  /**
   * Kills the process group at once, synchronously: for the host's `exit` event, when there
   * is no time left for {@link close} (a shutdown past its budget, `process.exit`).
   */
  killNow(): void {
    const child = this.run?.child;
    if (child) signalGroup(child, 'SIGKILL');
  }

  /** Stops the agent for good: its whole process group is ended (host shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const run = this.run;
    this.run = undefined;
    if (run) await this.stop(run);
  }

  private start(): Promise<AgentConnection> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const starting = this.launch().finally(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    this.starting = starting;
    return starting;
  }

  private async launch(): Promise<AgentConnection> {
    this.setState('starting');
    // A run whose end was not handled yet (its connection just closed) must not outlive it.
    const previous = this.run;
    if (previous) void this.stop(previous);
    const run = this.spawn();
    this.run = run;
    const services = new WorkspaceClient(this.context.authoriser, this.context.tuning.workspace ?? {});
    const options = {
      name: this.name,
      services,
      log: this.context.log,
      initializeTimeoutMs: this.tuning.startTimeoutMs,
      requestTimeoutMs: this.tuning.requestTimeoutMs,
      maxMessageBytes: this.tuning.maxMessageBytes,
      onAuthRequired: () => this.needsSignIn(),
      onSessionOpened: () => {
        if (this.state === 'needs_sign_in') this.setState('ready');
      },
    };
    let connection: AgentConnection;
    try {
      const opening =
        'app' in this.entry
          ? AgentConnection.open(this.entry.app(), options)
          : AgentConnection.open(transportOf(run.child), options);
      // A child that exits (or cannot be spawned) before it answers ends the wait at once.
      const exitedEarly = run.exited.then((how): never => {
        throw new AgentError('crashed', `The agent "${this.name}" ${how} before it was ready.`);
      });
      exitedEarly.catch(() => {});
      connection = await Promise.race([opening, exitedEarly]);
    } catch (error) {
      const reason =
        error instanceof AgentError
          ? this.withTail(run, error.message)
          : `The agent "${this.name}" could not start.`;
      void this.stop(run);
      void services.close();
      const failure = new AgentError('unavailable', reason);
      if (this.run === run) this.fail(run, reason);
      throw failure;
    }
    if (this.run !== run || this.closed) {
      connection.close();
      throw new AgentError('unavailable', `The agent "${this.name}" was stopped.`);
    }
    run.connection = connection;
    this.infoNow = connection.info;
    this.readySince = Date.now();
    this.reason = undefined;
    this.setState('ready');
    const version = connection.info.version === undefined ? '' : ` ${connection.info.version}`;
    this.context.log('info', `Agent "${this.name}" is ready (${connection.info.name}${version}).`, this.name);
    // Exit first: its code and stderr make the better message for requests in flight.
    void run.exited.then((how) => {
      connection.fail(new AgentError('crashed', this.withTail(run, `The agent "${this.name}" ${how}.`)));
    });
    void connection.closed.then((reason) => {
      if (this.run !== run || this.closed) return;
      this.fail(run, reason.kind === 'crashed' ? this.withTail(run, reason.message) : reason.message);
    });
    return connection;
  }

  private spawn(): Run {
    const tail = new StderrTail(this.entry.name, this.context.log, 'env' in this.entry ? this.entry.env : {});
    if ('app' in this.entry) {
      return { child: undefined, tail, exited: new Promise(() => {}), connection: undefined };
    }
    const entry = this.entry;
    const launch = agentLaunch(entry.command, entry.env);
    let child: ChildProcess;
    try {
      child = spawn(launch.command, [...entry.args], {
        cwd: entry.cwd ?? this.context.authoriser.roots[0] ?? process.cwd(),
        env: launch.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: shutdown ends what the agent started too (language servers,
        // shells), and a Ctrl-C in the host's terminal does not reach it before the host says so.
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      return {
        child: undefined,
        tail,
        exited: Promise.resolve(`could not be started (${(error as Error).message})`),
        connection: undefined,
      };
    }
    child.stderr?.on('data', (chunk: Buffer) => tail.add(chunk));
    // A write to a closed stdin must not crash the host; the exit says what happened.
    child.stdin?.on('error', () => {});
    const exited = new Promise<string>((resolve) => {
      child.on('error', (error: NodeJS.ErrnoException) => {
        resolve(
          error.code === 'ENOENT'
            ? `was not found ("${entry.command}")`
            : `could not be started (${error.code})`,
        );
      });
      child.on('exit', (code, signal) => {
        const how = code !== null ? `exited with code ${code}` : `was ended by ${signal ?? 'a signal'}`;
        // Its last stderr may still be in the pipe: wait for it a little (a grandchild can hold it open).
        const late = setTimeout(() => resolve(how), 200);
        child.once('close', () => {
          clearTimeout(late);
          resolve(how);
        });
      });
    });
    return { child, tail, exited, connection: undefined };
  }

  /** Marks the run failed and schedules the next start. */
  private fail(run: Run, reason: string): void {
    if (this.run !== run || this.closed) return;
    this.run = undefined;
    void this.stop(run);
    if (this.state === 'ready' && Date.now() - this.readySince >= STABLE_MS) this.failures = 0;
    const delay = backoffDelay(this.failures++, this.tuning.backoffInitialMs, this.tuning.backoffMaxMs);
    const level = reason === this.reason ? 'info' : 'warn';
    this.reason = reason;
    this.setState('failed');
    this.context.log(level, `${reason} Restarting it in ${Math.round(delay / 100) / 10} s.`, this.name);
    this.retryAt = Date.now() + delay;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.closed) this.start().catch(() => {});
    }, delay);
    this.retryTimer.unref();
  }

  private needsSignIn(): void {
    const entry = this.entry;
    const methods = this.infoNow?.authMethods ?? [];
    const known = 'signIn' in entry ? entry.signIn : undefined;
    const method = methods[0];
    this.signIn = known ?? (method === undefined ? undefined : signInOf(entry, method));
    this.reason = `The agent "${this.name}" needs you to sign in on the host.`;
    this.setState('needs_sign_in');
    this.context.log('warn', `${this.reason}${this.signIn ? ` Run: ${this.signIn}` : ''}`, this.name);
  }

  /** Ends a run: its connection, then its process group (SIGTERM, SIGKILL after the grace). */
  private async stop(run: Run): Promise<void> {
    run.connection?.close();
    const child = run.child;
    if (!child) return;
    if (child.exitCode !== null || child.signalCode !== null) {
      // The leader is gone (a crash); what it started may not be.
      signalGroup(child, 'SIGKILL');
      return;
    }
    child.stdin?.end();
    signalGroup(child, 'SIGTERM');
    const kill = setTimeout(() => signalGroup(child, 'SIGKILL'), this.tuning.killGraceMs);
    await Promise.race([run.exited, sleep(this.tuning.killGraceMs + 1_000)]);
    clearTimeout(kill);
    // Whatever of the group outlived its leader goes too.
    signalGroup(child, 'SIGKILL');
  }

  private withTail(run: Run, message: string): string {
    const last = run.tail.lastLines();
    return last === '' || message.includes(TAIL_MARK) ? message : `${message}${TAIL_MARK}${last}`;
  }

  private setState(state: AgentStatus['state']): void {
    this.state = state;
    this.context.onChange();
  }
}

/** What to run for an auth method: a terminal method's command line, or the agent's own name. */
function signInOf(
  entry: AgentCommandEntry | AgentAppEntry,
  method: AgentInfo['authMethods'][number],
): string {
  if ('type' in method && method.type === 'terminal' && 'command' in entry) {
    return [entry.command, ...entry.args, ...(method.args ?? [])].join(' ');
  }
  const how = method.description ? `${method.name}: ${method.description}` : method.name;
  return 'command' in entry ? `${entry.command} (${how})` : how;
}

function transportOf(child: ChildProcess | undefined) {
  if (!child?.stdin || !child.stdout) throw new AgentError('crashed', 'The agent process has no stdio.');
  return {
    stdin: Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    stdout: Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform !== 'win32') process.kill(-pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
