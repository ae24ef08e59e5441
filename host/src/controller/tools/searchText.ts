import fs from 'node:fs';
import path from 'node:path';
import { resolveInWorkspace } from './resolveInWorkspace';
import { optionalBooleanArg, optionalIntArg, optionalStringArg, preview, stringArg, type Tool } from './Tool';
import { ToolError } from './ToolError';

/** Folders never searched: version control internals and installed dependencies. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
/** Larger files are skipped (generated bundles, data dumps). */
const MAX_FILE_BYTES = 1024 * 1024;
/** A NUL byte among the first bytes marks a file as binary. */
const SNIFF_BYTES = 8 * 1024;
/** Longest part of a matching line shown. */
const MAX_LINE_CHARS = 200;
const DEFAULT_RESULTS = 50;
const MAX_RESULTS = 500;

/** Options of {@link createSearchText}. */
export interface SearchTextOptions {
  /** The search stops (with a note) after this long; it runs on the main executor. @default 2000 */
  readonly timeBudgetMs?: number;
  /** The search stops (with a note) after reading this many files. @default 20000 */
  readonly maxFiles?: number;
}

interface Scan {
  readonly root: string;
  readonly needle: string;
  readonly caseSensitive: boolean;
  readonly maxResults: number;
  readonly deadline: number;
  readonly maxFiles: number;
  readonly results: string[];
  files: number;
  skippedLarge: number;
  stopped: 'results' | 'time' | 'files' | undefined;
}

/**
 * `search_text {pattern, path?, maxResults?, caseSensitive?}`: finds a plain-text pattern in
 * the text files of the workspace and answers `file:line: text` lines. Skips `.git`,
 * `node_modules`, files over 1 MiB and binary files; never follows symlinks (so it cannot leave
 * the workspace or loop). Bounded in results, files read and time.
 */
export function createSearchText(options: SearchTextOptions = {}): Tool {
  const timeBudgetMs = options.timeBudgetMs ?? 2000;
  const maxFiles = options.maxFiles ?? 20_000;
  return {
    name: 'search_text',
    description:
      'Search the text files of the project workspace for a plain-text pattern (case-insensitive ' +
      'unless caseSensitive is true). Answers one "file:line: text" line per match.',
    needsApproval: false,
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The text to find (plain text, one line, not a regex).' },
        path: { type: 'string', description: 'Folder (or file) to search, relative to the workspace root.' },
        maxResults: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_RESULTS,
          description: `Most matches returned (default ${DEFAULT_RESULTS}).`,
        },
        caseSensitive: { type: 'boolean', description: 'Match case exactly (default false).' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    summarize: (args) => `Search for ${preview(args.pattern)} in ${preview(args.path ?? '.')}`,
    run(args, { workspace }) {
      const pattern = stringArg(args, 'pattern');
      if (pattern === '') throw new ToolError('The pattern is empty.');
      if (/[\r\n]/.test(pattern)) throw new ToolError('The pattern must be a single line.');
      const caseSensitive = optionalBooleanArg(args, 'caseSensitive') ?? false;
      const scan: Scan = {
        root: fs.realpathSync(workspace),
        needle: caseSensitive ? pattern : pattern.toLowerCase(),
        caseSensitive,
        maxResults: optionalIntArg(args, 'maxResults', 1, MAX_RESULTS) ?? DEFAULT_RESULTS,
        deadline: Date.now() + timeBudgetMs,
        maxFiles,
        results: [],
        files: 0,
        skippedLarge: 0,
        stopped: undefined,
      };
      walk(scan, resolveInWorkspace(workspace, optionalStringArg(args, 'path') ?? '.'));
      return report(scan, pattern);
    },
  };
}

/** The `search_text` tool with its default limits. */
export const searchText: Tool = createSearchText();

function walk(scan: Scan, start: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(start);
  } catch {
    throw new ToolError('That folder does not exist in the workspace.');
  }
  if (stat.isFile()) {
    searchFile(scan, start);
    return;
  }
  if (!stat.isDirectory()) throw new ToolError('That path is not a folder or a file.');
  const folders = [start];
  while (folders.length > 0 && scan.stopped === undefined) {
    // The walk itself counts against the budget: a tree of empty folders has no files to
    // check the clock for, and the search runs on the main executor.
    if (Date.now() >= scan.deadline) {
      scan.stopped = 'time';
      return;
    }
    const folder = folders.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      continue; // unreadable (permissions): search the rest
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const below: string[] = [];
    for (const entry of entries) {
      if (scan.stopped !== undefined) return;
      const full = path.join(folder, entry.name);
      // Dirent types come from lstat: a symlink is neither a file nor a folder here.
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) below.push(full);
      } else if (entry.isFile()) {
        searchFile(scan, full);
      }
    }
    // Reversed onto the stack, so folders are searched in name order, depth first.
    for (let i = below.length - 1; i >= 0; i--) folders.push(below[i]!);
  }
}

function searchFile(scan: Scan, file: string): void {
  if (Date.now() >= scan.deadline) {
    scan.stopped = 'time';
    return;
  }
  if (scan.files >= scan.maxFiles) {
    scan.stopped = 'files';
    return;
  }
  scan.files++;
  const text = readText(scan, file);
  if (text === undefined) return;
  const name = path.relative(scan.root, file).split(path.sep).join('/');
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    const at = (scan.caseSensitive ? line : line.toLowerCase()).indexOf(scan.needle);
    if (at < 0) continue;
    if (scan.results.length >= scan.maxResults) {
      scan.stopped = 'results';
      return;
    }
    scan.results.push(`${name}:${i + 1}: ${clip(line, at, scan.needle.length)}`);
  }
}

/** The file's text, or undefined for a file that is skipped (too large, binary, unreadable). */
function readText(scan: Scan, file: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_FILE_BYTES) {
      scan.skippedLarge++;
      return undefined;
    }
    const buffer = Buffer.alloc(stat.size);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, read);
    if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return undefined;
    return bytes.toString('utf8');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** A matching line, cut to a window around the match when it is long. */
function clip(line: string, at: number, length: number): string {
  const trimmed = line.trim();
  if (trimmed.length <= MAX_LINE_CHARS) return trimmed;
  const start = Math.max(0, Math.min(at - 60, line.length - MAX_LINE_CHARS));
  const end = Math.min(line.length, Math.max(start + MAX_LINE_CHARS, at + length));
  return `${start > 0 ? '…' : ''}${line.slice(start, end).trim()}${end < line.length ? '…' : ''}`;
}

function report(scan: Scan, pattern: string): string {
  const lines = [...scan.results];
  if (lines.length === 0) lines.push(`No matches for ${JSON.stringify(pattern)}.`);
  if (scan.stopped === 'results') {
    lines.push(`(showing the first ${scan.maxResults} matches; narrow the search or raise maxResults)`);
  } else if (scan.stopped === 'time') {
    lines.push('(the search ran out of time; results are incomplete; search a subfolder)');
  } else if (scan.stopped === 'files') {
    lines.push(
      `(the search stopped after ${scan.maxFiles} files; results are incomplete; search a subfolder)`,
    );
  }
  if (scan.skippedLarge > 0) {
    lines.push(`(skipped ${scan.skippedLarge} file${scan.skippedLarge === 1 ? '' : 's'} over 1 MiB)`);
  }
  return lines.join('\n');
}
