import { listFiles } from './listFiles';
import { patchFile } from './patchFile';
import { readFile } from './readFile';
import { runCommand } from './runCommand';
import { searchText } from './searchText';
import type { Tool } from './Tool';
import { writeFile } from './writeFile';

/** The tools every project has: they act inside the project's workspace folder. */
export const BUILTIN_TOOLS: readonly Tool[] = [
  listFiles,
  readFile,
  searchText,
  writeFile,
  patchFile,
  runCommand,
];
