import { listFiles } from './listFiles';
import { readFile } from './readFile';
import type { Tool } from './Tool';
import { writeFile } from './writeFile';

/** The tools every project has: they act inside the project's workspace folder. */
export const BUILTIN_TOOLS: readonly Tool[] = [listFiles, readFile, writeFile];
