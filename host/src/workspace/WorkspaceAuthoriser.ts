import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isInside } from './isInside';

/** A segment that is `..` once percent-decoding is undone, whatever the encoding. */
const DOT_DOT_SEGMENT = /(^|[/\\])\.\.([/\\]|$)/;

/**
 * Decides which folders the browser may point a project at: the authorised roots and what is
 * below them, after decoding, normalising and resolving symlinks. The browser can name a
 * folder, never grant access to a new one.
 *
 * @example
 * ```ts
 * const authoriser = new WorkspaceAuthoriser(['/home/me/.webbridge/workspace']);
 * authoriser.authorise('file:///home/me/.webbridge/workspace/site'); // 'file:///home/me/.webbridge/workspace/site'
 * authoriser.authorise('file:///etc'); // undefined
 * ```
 */
export class WorkspaceAuthoriser {
  private list: readonly string[];

  /** Every root must exist; symlinks in a root's own path are resolved once, here. */
  constructor(roots: readonly string[]) {
    this.list = [...new Set(roots.map(resolveRoot))];
  }

  /** The roots, resolved through symlinks. The array is replaced (never mutated) when one is added. */
  get roots(): readonly string[] {
    return this.list;
  }

  /**
   * Authorises another root. Only the host side calls this (console, configuration): the
   * browser can never grant access to a folder. Returns the resolved path; throws when the
   * folder is not an existing absolute folder.
   */
  addRoot(folder: string): string {
    const real = resolveRoot(folder);
    if (!this.list.includes(real)) this.list = [...this.list, real];
    return real;
  }

  /**
   * The canonical `file:` URI of `uri` (a `file:` URI or an absolute path) when it names an
   * existing folder that is an authorised root or below one; undefined otherwise.
   */
  authorise(uri: string): string | undefined {
    const real = this.authorisePath(uri);
    return real === undefined ? undefined : pathToFileURL(real).href;
  }

  /** Like {@link authorise}, but returns the canonical absolute path. */
  authorisePath(uri: string): string | undefined {
    const candidate = toAbsolutePath(uri);
    if (candidate === undefined) return undefined;
    let real: string;
    try {
      real = fs.realpathSync(path.resolve(candidate));
      if (!fs.statSync(real).isDirectory()) return undefined;
    } catch {
      return undefined;
    }
    return this.roots.some((root) => isInside(root, real)) ? real : undefined;
  }
}

function resolveRoot(root: string): string {
  if (!path.isAbsolute(root)) throw new Error(`A workspace root must be an absolute path: ${root}`);
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch {
    throw new Error(`A workspace root must exist: ${root}`);
  }
  if (!fs.statSync(real).isDirectory()) throw new Error(`A workspace root must be a folder: ${root}`);
  return real;
}

function toAbsolutePath(uri: string): string | undefined {
  if (uri.includes('\0')) return undefined;
  // Traversal is refused outright rather than normalised away: a client that sends `..` is
  // either buggy or probing, and the URL parser would otherwise hide it from the checks below.
  if (DOT_DOT_SEGMENT.test(uri) || DOT_DOT_SEGMENT.test(safeDecode(uri) ?? '..')) return undefined;
  if (uri.startsWith('/')) return uri;
  if (!/^file:/i.test(uri)) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'file:' || url.search !== '' || url.hash !== '') return undefined;
  if (url.hostname !== '' && url.hostname !== 'localhost') return undefined;
  try {
    // Throws on an encoded `/` (%2F), which could otherwise smuggle a separator past the checks.
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string | undefined {
  try {
    // Twice, so a double-encoded `%252e%252e` is caught as well.
    return decodeURIComponent(decodeURIComponent(text));
  } catch {
    return undefined;
  }
}
