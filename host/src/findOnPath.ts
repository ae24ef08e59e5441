import fs from 'node:fs';
import path from 'node:path';

/**
 * The absolute path of a bare command name on a PATH, if it is an executable file there (an MCP
 * server's or an agent's program). A name with a folder in it is taken as it is.
 */
export function findOnPath(command: string, searchPath: string | undefined): string | undefined {
  if (command.includes('/') || command.includes(path.sep) || !searchPath) return undefined;
  for (const folder of searchPath.split(path.delimiter)) {
    if (!path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not there; try the next folder.
    }
  }
  return undefined;
}
