import { useContext } from 'preact/hooks';
import { relativePath } from '../render/relativePath';
import { ProjectRootContext } from '../state/ProjectRootContext';

/**
 * A file's path with its name first in weight: the folder small and soft above it, so a long
 * path still shows at a glance which file it is. A path inside the project's workspace
 * ({@link ProjectRootContext}) is shown from there (`src/a.ts`, not the host's whole
 * `/home/…/src/a.ts`, which would take a phone's line); its title is always the whole path.
 */
export function FilePath({ path }: { readonly path: string }) {
  const shown = relativePath(path, useContext(ProjectRootContext)) ?? path;
  const cut = shown.lastIndexOf('/') + 1;
  return (
    <code class="file-path" title={path}>
      {cut > 0 && <span class="file-dir">{shown.slice(0, cut)}</span>}
      <span class="file-base">{shown.slice(cut)}</span>
    </code>
  );
}
