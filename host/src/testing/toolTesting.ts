import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '@webbridge/contract';
import { DEFAULT_SETTINGS } from '../controller/settings';
import type { ToolContext } from '../controller/tools/Tool';
import { tempDir } from './testController';

/** A real workspace folder and a real folder beside it (outside), for tool tests. */
export function toolWorkspace(): { workspace: string; outside: string } {
  const base = fs.realpathSync(tempDir('webbridge-tool-'));
  const workspace = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  return { workspace, outside };
}

/** The context a tool call runs with. */
export function toolContext(
  workspace: string,
  settings: Partial<Settings> = {},
  signal: AbortSignal = new AbortController().signal,
): ToolContext {
  return { workspace, settings: { ...DEFAULT_SETTINGS, ...settings }, signal };
}

/** Writes files (creating folders) under a root: `{ 'a/b.txt': 'text' }`. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}
