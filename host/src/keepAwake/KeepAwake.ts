import { type ChildProcess, spawn } from 'node:child_process';
import type { Inhibitor } from './inhibitorFor';

/**
 * Keeps the host machine from sleeping while something needs it awake (a reply runs, an
 * approval waits): {@link set}(true) starts the platform's inhibitor, {@link set}(false) stops
 * it. Idempotent; one inhibitor at most. An inhibitor that cannot start or ends by itself is
 * reported once and not tried again: the host goes on without it.
 */
export class KeepAwake {
  private child: ChildProcess | undefined;
  private failed = false;

  constructor(
    readonly inhibitor: Inhibitor,
    private readonly onError: (message: string) => void = () => {},
  ) {}

  /** Whether it can keep the machine awake at all (for the banner). */
  get supported(): boolean {
    return this.inhibitor.kind === 'command' && !this.failed;
  }

  /** Whether an inhibitor is held now. */
  get held(): boolean {
    return this.child !== undefined;
  }

  /** Holds (`true`) or releases (`false`) the machine. */
  set(awake: boolean): void {
    if (awake) this.hold();
    else this.release();
  }

  /** Releases and forgets; nothing is held afterwards. */
  close(): void {
    this.release();
  }

  private hold(): void {
    if (this.child !== undefined || this.failed || this.inhibitor.kind !== 'command') return;
    const { command, args, name } = this.inhibitor;
    // stdin is the pipe systemd-inhibit's `cat` reads: closed on release or when the host dies.
    const child = spawn(command, [...args], { stdio: ['pipe', 'ignore', 'ignore'], detached: false });
    child.stdin?.on('error', () => {
      // The inhibitor already ended; its exit is handled below.
    });
    child.once('error', (error) => {
      this.failed = true;
      if (this.child === child) this.child = undefined;
      this.onError(`${name} could not start (${error.message}): the machine may sleep during a reply`);
    });
    child.once('exit', (code) => {
      if (this.child !== child) return;
      // Ended on its own (no session bus, refused by policy): not started again on every
      // change of a reply, which would spawn one per word.
      this.child = undefined;
      this.failed = true;
      this.onError(`${name} ended at once (exit code ${code}): the machine may sleep during a reply`);
    });
    this.child = child;
  }

  private release(): void {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    child.stdin?.end();
    // caffeinate reads nothing: it is stopped instead (systemd-inhibit ends with its `cat`).
    if (this.inhibitor.kind === 'command' && this.inhibitor.name !== 'systemd-inhibit') child.kill('SIGTERM');
    else setTimeout(() => child.exitCode === null && child.kill('SIGTERM'), 2_000).unref();
  }
}
