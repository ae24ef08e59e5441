/**
 * `path` as it is inside the folder `root` (`src/a.ts`), or undefined when it is not below it
 * (a file elsewhere on the host keeps its whole path). Paths on the host use `/`.
 *
 * @example relativePath('/home/me/app/src/a.ts', '/home/me/app') // 'src/a.ts'
 */
export function relativePath(path: string, root: string | undefined): string | undefined {
  if (root === undefined || root === '' || root === '/') return undefined;
  const base = root.endsWith('/') ? root : `${root}/`;
  if (!path.startsWith(base) || path.length === base.length) return undefined;
  return path.slice(base.length);
}
