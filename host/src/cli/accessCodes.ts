import fs from 'node:fs';
import path from 'node:path';
import { writeSecretFile } from '@webbridge/server';
import { generateAccessCode } from './generateAccessCode';

/** Shortest code accepted: a short code falls to guessing from a few addresses despite the throttle. */
const MIN_CODE_LENGTH = 8;

/** Where a code came from; the CLI warns about the command line, where `ps` shows it. */
type CodeSource = 'flag' | 'file' | 'env' | 'kept' | 'generated';

/** The code a run uses, and where it came from. */
export interface ChosenCode {
  readonly code: string;
  readonly source: CodeSource;
}

/** Files of the kept codes in the data dir (mode 0600). */
const KEPT = { access: 'access-code', view: 'view-code' } as const;

/** Which of the two codes. */
export type CodeKind = keyof typeof KEPT;

/**
 * The code of a file given with `--access-code-file` / `--view-code-file`: its first line,
 * trimmed. Throws a message naming the file when it cannot be read or holds too short a code.
 */
export function readCodeFile(file: string, flag: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`${flag} ${file}: ${code === 'ENOENT' ? 'no such file' : 'cannot be read'}.`);
  }
  const code = (text.split(/\r?\n/)[0] ?? '').trim();
  checkCode(code, `${flag} ${file}`);
  return code;
}

/** Throws when `code` is too short or holds spaces (it travels in a Bearer header). */
export function checkCode(code: string, where: string): void {
  if (code.length < MIN_CODE_LENGTH) {
    throw new Error(`${where}: the code must be at least ${MIN_CODE_LENGTH} characters.`);
  }
  if (/[\s,]/.test(code)) throw new Error(`${where}: the code must not contain spaces or commas.`);
}

/** The code kept in the data dir, if any (a damaged file counts as none). */
export function keptCode(dataDir: string, kind: CodeKind): string | undefined {
  try {
    const code = fs.readFileSync(path.join(dataDir, KEPT[kind]), 'utf8').trim();
    checkCode(code, kind);
    return code;
  } catch {
    return undefined;
  }
}

/** Keeps `code` in the data dir (mode 0600) so the next start reuses it: phones stay paired. */
export function keepCode(dataDir: string, kind: CodeKind, code: string): void {
  writeSecretFile(path.join(dataDir, KEPT[kind]), `${code}\n`);
}

/** Forgets the kept code (the view code was turned off). */
export function forgetCode(dataDir: string, kind: CodeKind): void {
  fs.rmSync(path.join(dataDir, KEPT[kind]), { force: true });
}

/**
 * Makes the kept code files private again (0600), as the keys and the database are on every
 * start: an older run, a copy or a restored backup may have left them readable, and whoever
 * reads the access code controls the host. A missing file is fine.
 */
function tightenKeptCodes(dataDir: string): void {
  for (const file of Object.values(KEPT)) {
    try {
      fs.chmodSync(path.join(dataDir, file), 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * The access code of this run: the one given (flag, file or environment, in that order of
 * precedence, decided by the argument parser), else the one kept in the data dir, else a fresh
 * one that is kept from now on. Both kept code files are made 0600 first, used or not.
 */
export function chooseAccessCode(dataDir: string, given: ChosenCode | undefined): ChosenCode {
  tightenKeptCodes(dataDir);
  if (given) return given;
  const kept = keptCode(dataDir, 'access');
  if (kept) return { code: kept, source: 'kept' };
  const code = generateAccessCode();
  keepCode(dataDir, 'access', code);
  return { code, source: 'generated' };
}

/** The view code of this run: the one given, else the one kept (made by the console's `view`). */
export function chooseViewCode(dataDir: string, given: ChosenCode | undefined): ChosenCode | undefined {
  if (given) return given;
  const kept = keptCode(dataDir, 'view');
  return kept ? { code: kept, source: 'kept' } : undefined;
}
