import type { KvTable } from '../db/KvTable';
import type { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';

/** The kv key of the roots authorised from the console, a JSON array of absolute paths. */
const KV_ADDED_ROOTS = 'added_workspace_roots';

/** The workspace roots authorised from the console in earlier runs, as remembered in the store. */
function addedWorkspaceRoots(kv: Pick<KvTable, 'get'>): string[] {
  try {
    const value: unknown = JSON.parse(kv.get(KV_ADDED_ROOTS) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    // A hand-edited or truncated value must not keep the host from starting.
    return [];
  }
}

/** At startup: authorises again every root remembered by {@link rememberWorkspaceRoot}. */
export function restoreWorkspaceRoots(kv: Pick<KvTable, 'get'>, authoriser: WorkspaceAuthoriser): void {
  for (const root of addedWorkspaceRoots(kv)) {
    try {
      authoriser.addRoot(root);
    } catch {
      // The folder is gone (unmounted, deleted): it stays remembered but unusable until it returns.
    }
  }
}

/**
 * Authorises another workspace root and remembers it across restarts. Returns the resolved
 * folder; throws when it is not an existing absolute folder.
 */
export function rememberWorkspaceRoot(kv: KvTable, authoriser: WorkspaceAuthoriser, folder: string): string {
  const real = authoriser.addRoot(folder);
  const added = addedWorkspaceRoots(kv);
  if (!added.includes(real)) kv.set(KV_ADDED_ROOTS, JSON.stringify([...added, real]));
  return real;
}
