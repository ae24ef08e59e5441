import path from 'node:path';

/**
 * Whether `child` is `parent` or below it. Both must be absolute and normalised. Compares whole
 * path segments, so `/ws-evil` is not inside `/ws`, and `/ws/..notes` is.
 */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  if (relative === '') return true;
  if (path.isAbsolute(relative)) return false;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`);
}
