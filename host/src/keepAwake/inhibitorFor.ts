import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** How a platform is kept awake: a command that holds it while it runs, or why it cannot be. */
export type Inhibitor =
  | {
      readonly kind: 'command';
      readonly name: string;
      readonly command: string;
      readonly args: readonly string[];
    }
  | { readonly kind: 'unsupported'; readonly reason: string };

/**
 * The platform's way of keeping the machine from sleeping, found on `PATH`:
 * `systemd-inhibit` on Linux (an idle and sleep lock, held while its child `cat` reads the
 * host's pipe, so a host that dies releases it too) and `caffeinate -i -w <pid>` on macOS
 * (held until it is stopped or the host exits). Windows' execution state needs a native call
 * this host does not make: unsupported, and said so.
 */
export function inhibitorFor(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  pid: number,
): Inhibitor {
  switch (platform) {
    case 'linux': {
      const command = onPath('systemd-inhibit', env.PATH);
      if (command === undefined) return { kind: 'unsupported', reason: 'no systemd-inhibit on PATH' };
      return {
        kind: 'command',
        name: 'systemd-inhibit',
        command,
        args: [
          '--what=idle:sleep',
          '--who=webbridge',
          '--why=A reply is running or an approval waits',
          '--mode=block',
          'cat',
        ],
      };
    }
    case 'darwin': {
      const command = onPath('caffeinate', env.PATH);
      if (command === undefined) return { kind: 'unsupported', reason: 'no caffeinate on PATH' };
      return { kind: 'command', name: 'caffeinate', command, args: ['-i', '-w', String(pid)] };
    }
    default:
      return { kind: 'unsupported', reason: `not supported on ${platform}` };
  }
}

/** The executable `name` in one of `PATH`'s folders, or undefined. */
function onPath(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}
