import { readdirSync, readFileSync } from 'node:fs';

/** A child process of this test process, as /proc shows it. */
export interface ChildProcessInfo {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The running children of this process (Linux /proc), with their arguments and environment:
 * how a test finds the MCP server a host spawned, to crash it or to read what it was given.
 */
export function childProcesses(): ChildProcessInfo[] {
  const out: ChildProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The fields after the command name (which may hold spaces) start after the last ')'.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== process.pid || state === 'Z') continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const env = Object.fromEntries(
        readFileSync(`/proc/${entry}/environ`, 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      );
      out.push({ pid: Number(entry), argv, env });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** The pid of the child whose environment has `WB_SERVER=<name>` (the test configs set it). */
export function serverPid(name: string): number | undefined {
  return childProcesses().find((child) => child.env.WB_SERVER === name)?.pid;
}

/**
 * Resolves once exactly one child named `name` runs and it is not `old`: a replaced server's
 * process may still be ending (SIGTERM after 300 ms) while its successor is already ready.
 */
export function waitForReplacement(
  name: string,
  old: number | undefined,
  timeoutMs = 5_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      const pids = childProcesses()
        .filter((child) => child.env.WB_SERVER === name)
        .map((child) => child.pid);
      if (pids.length === 1 && pids[0] !== old) resolve(pids[0]!);
      else if (Date.now() > deadline)
        reject(new Error(`${name}: still ${pids.join(', ') || 'none'} (old ${old})`));
      else setTimeout(check, 20);
    };
    check();
  });
}
