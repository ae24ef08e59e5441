/**
 * `text` (an agent's title for a tool call, e.g. `Edit /home/me/app/src/a.ts`) with every path
 * below the folder `root` written from there (`Edit src/a.ts`), as the card's file list shows
 * them; the same text when nothing in it is below `root`. Only a whole path counts: it starts
 * the text or follows white space, a quote or a bracket, so `/home/me/apple` is not inside
 * `/home/me/app`.
 *
 * @example pathsWithin('Read /home/me/app/a.ts', '/home/me/app') // 'Read a.ts'
 */
export function pathsWithin(text: string, root: string | undefined): string {
  if (root === undefined || root === '' || root === '/') return text;
  const base = root.endsWith('/') ? root : `${root}/`;
  if (!text.includes(base)) return text;
  let out = '';
  let from = 0;
  for (let at = text.indexOf(base); at >= 0; at = text.indexOf(base, at + base.length)) {
    const before = at === 0 ? ' ' : text[at - 1]!;
    const next = text[at + base.length];
    if (PATH_START.test(before) && next !== undefined && !/\s/.test(next)) {
      out += text.slice(from, at);
      from = at + base.length;
    }
  }
  return out + text.slice(from);
}

/** What may come right before a path in free text: white space, a quote, a bracket. */
const PATH_START = /[\s"'`([{<]/;
