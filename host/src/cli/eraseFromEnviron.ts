import fs from 'node:fs';

/** Where a process's initial environment lies in its memory, and what it holds now. */
interface EnvironRegion {
  /** Its first address (`env_start` of `/proc/self/stat`). */
  readonly start: number;
  /** Its bytes: `NAME=value` entries, each ended by a NUL. */
  readonly bytes: Buffer;
}

/**
 * Erases the variables `names` from the memory Linux shows as this process's
 * `/proc/<pid>/environ`, which every process of the same user can read for as long as this one
 * runs (deleting from `process.env` does not change it: it is the strings the process was
 * started with, on its stack). `process.env` keeps their values, in memory the C library
 * allocated instead, so the program reads them as before.
 *
 * Each variable is first set again (the C library then points at a copy of its own), then its
 * original `NAME=value` bytes are overwritten with NULs through `/proc/self/mem`, which a
 * process may always write for itself; what `/proc/self/environ` shows afterwards is checked.
 * Returns false where that is not possible (not Linux, no `/proc`, a kernel that refuses the
 * write): the variables are then in `process.env` as before, and perhaps still in the region.
 *
 * @example
 * ```ts
 * eraseFromEnviron(['WEBBRIDGE_ACCESS_CODE']); // true on Linux: /proc/<pid>/environ no longer has it
 * process.env.WEBBRIDGE_ACCESS_CODE; // still the code
 * ```
 */
export function eraseFromEnviron(names: readonly string[]): boolean {
  if (process.platform !== 'linux') return false;
  const wanted = new Set(names);
  const values = new Map<string, string>();
  for (const name of wanted) {
    const value = process.env[name];
    if (value !== undefined) values.set(name, value);
  }
  try {
    const region = environRegion();
    const spans = entriesNamed(region.bytes, wanted);
    // Moved first: once no pointer of the C library leads into the region, zeroing it cannot
    // change what the program reads. Unset and set again: setenv never writes in place.
    for (const [name, value] of values) {
      delete process.env[name];
      process.env[name] = value;
    }
    const mem = fs.openSync('/proc/self/mem', 'r+');
    try {
      for (const [offset, length] of spans) {
        const written = fs.writeSync(mem, Buffer.alloc(length), 0, length, region.start + offset);
        if (written !== length) return false;
      }
    } finally {
      fs.closeSync(mem);
    }
    return entriesNamed(environRegion().bytes, wanted).length === 0;
  } catch {
    return false;
  } finally {
    // Whatever happened, the program sees the same values.
    for (const [name, value] of values) process.env[name] = value;
  }
}

/** This process's initial environment: its address and its current bytes. */
function environRegion(): EnvironRegion {
  const stat = fs.readFileSync('/proc/self/stat', 'latin1');
  // Fields after the command name (which may hold spaces and parentheses): the 3rd comes first,
  // so field n (`proc(5)`: 50 env_start, 51 env_end) is at n - 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  const bytes = fs.readFileSync('/proc/self/environ');
  // Zero when the kernel hides them (another process's view) or too old to show them.
  if (!(start > 0 && end - start === bytes.length)) throw new Error('the environment region is not known');
  return { start, bytes };
}

/** The offset and length of every `NAME=value` entry of `bytes` whose name is in `names`. */
function entriesNamed(bytes: Buffer, names: ReadonlySet<string>): [number, number][] {
  const spans: [number, number][] = [];
  let offset = 0;
  while (offset < bytes.length) {
    let end = bytes.indexOf(0, offset);
    if (end === -1) end = bytes.length;
    const equals = bytes.indexOf(0x3d, offset);
    if (equals > offset && equals < end && names.has(bytes.toString('utf8', offset, equals))) {
      spans.push([offset, end - offset]);
    }
    offset = end + 1;
  }
  return spans;
}
