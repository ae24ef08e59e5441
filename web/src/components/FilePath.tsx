/**
 * A file's path with its name first in weight: the folder small and soft above it, so a long
 * absolute path on the host still shows at a glance which file it is. Its text is the whole path.
 */
export function FilePath({ path }: { readonly path: string }) {
  const cut = path.lastIndexOf('/') + 1;
  return (
    <code class="file-path" title={path}>
      {cut > 0 && <span class="file-dir">{path.slice(0, cut)}</span>}
      <span class="file-base">{path.slice(cut)}</span>
    </code>
  );
}
