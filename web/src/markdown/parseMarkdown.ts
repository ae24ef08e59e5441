/**
 * A small markdown parser for replies: it builds a tree, never HTML, so the page renders text
 * nodes only and nothing in a reply can become markup or script. Supported: paragraphs, hard
 * line breaks, headings, fenced and indented code, bullet and numbered lists (nested),
 * block quotes, rules, and inline code, bold, italic, strikethrough, links and bare URLs.
 * An unfinished construct (a fence still streaming) renders as far as it goes.
 */

/** An inline node. */
export type Inline =
  | { readonly t: 'text'; readonly v: string }
  | { readonly t: 'code'; readonly v: string }
  | { readonly t: 'strong' | 'em' | 'del'; readonly c: readonly Inline[] }
  | { readonly t: 'link'; readonly href: string; readonly c: readonly Inline[] }
  | { readonly t: 'br' };

/** A block node. */
export type Block =
  | { readonly t: 'p'; readonly c: readonly Inline[] }
  | { readonly t: 'h'; readonly level: 1 | 2 | 3 | 4 | 5 | 6; readonly c: readonly Inline[] }
  | { readonly t: 'pre'; readonly lang: string; readonly v: string }
  | {
      readonly t: 'list';
      readonly ordered: boolean;
      readonly start: number;
      readonly items: readonly Block[][];
    }
  | { readonly t: 'quote'; readonly c: readonly Block[] }
  | { readonly t: 'hr' };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const ITEM = /^( {0,3})([-*+]|(\d{1,9})[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/**
 * Parses markdown text into blocks.
 *
 * @example
 * ```ts
 * parseMarkdown('Hello **world**');
 * // [{ t: 'p', c: [{ t: 'text', v: 'Hello ' }, { t: 'strong', c: [{ t: 'text', v: 'world' }] }] }]
 * ```
 */
export function parseMarkdown(text: string): Block[] {
  return parseBlocks(text.replace(/\r\n?/g, '\n').split('\n'), 0);
}

function parseBlocks(lines: readonly string[], depth: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ t: 'p', c: parseInline(paragraph.join('\n')) });
    paragraph = [];
  };
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? '').trimStart().startsWith(marker))
        body.push(lines[i++] ?? '');
      i++;
      blocks.push({ t: 'pre', lang: fence[2] ?? '', v: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, heading[1]?.length ?? 1) as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ t: 'h', level, c: parseInline(heading[2] ?? '') });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ t: 'hr' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      flush();
      const quoted: string[] = [];
      while (i < lines.length) {
        const q = QUOTE.exec(lines[i] ?? '');
        if (!q) break;
        quoted.push(q[1] ?? '');
        i++;
      }
      blocks.push({ t: 'quote', c: depth < 8 ? parseBlocks(quoted, depth + 1) : [] });
      continue;
    }
    const item = ITEM.exec(line);
    if (item && (paragraph.length === 0 || item[3] === undefined || item[3] === '1')) {
      flush();
      const ordered = item[3] !== undefined;
      const items: string[][] = [];
      while (i < lines.length) {
        const current = lines[i] ?? '';
        const next = ITEM.exec(current);
        if (next && (next[3] !== undefined) === ordered && (next[1]?.length ?? 0) < 2) {
          items.push([next[4] ?? '']);
          i++;
        } else if (
          /^\s{2,}\S/.test(current) ||
          (current.trim() === '' && /^\s{2,}\S/.test(lines[i + 1] ?? ''))
        ) {
          items.at(-1)?.push(current.replace(/^ {2,4}|^\t/, ''));
          i++;
        } else if (current.trim() !== '' && !next && items.length > 0 && !startsBlock(current)) {
          // A lazy continuation line of the last item's paragraph.
          items.at(-1)?.push(current);
          i++;
        } else break;
      }
      blocks.push({
        t: 'list',
        ordered,
        start: ordered ? Number(item[3]) : 1,
        items: items.map((lines) => (depth < 8 ? parseBlocks(lines, depth + 1) : [])),
      });
      continue;
    }
    if (/^( {4}|\t)/.test(line) && paragraph.length === 0) {
      const body: string[] = [];
      while (i < lines.length && (/^( {4}|\t)/.test(lines[i] ?? '') || (lines[i] ?? '').trim() === '')) {
        body.push((lines[i] ?? '').replace(/^( {4}|\t)/, ''));
        i++;
      }
      while (body.length > 0 && body.at(-1)?.trim() === '') body.pop();
      blocks.push({ t: 'pre', lang: '', v: body.join('\n') });
      continue;
    }
    paragraph.push(line);
    i++;
  }
  flush();
  return blocks;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

/** The link targets a reply may open: web pages and mail only (never javascript:, data:, …). */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  return /^(https?:\/\/|mailto:)[^\s]+$/i.test(href) ? href : null;
}

const URL_RE = /^https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"\]]/i;

/** Parses inline markup. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const pushText = () => {
    if (buffer !== '') out.push({ t: 'text', v: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    const rest = text.slice(i);
    if (ch === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!~>]/.test(text[i + 1] ?? '')) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '\n') {
      // Two trailing spaces or a backslash make a hard break; a lone newline stays a newline
      // (replies are chat, where single newlines are meant).
      buffer = buffer.replace(/ +$/, '');
      pushText();
      out.push({ t: 'br' });
      i++;
      continue;
    }
    if (ch === '`') {
      const ticks = /^`+/.exec(rest)?.[0] ?? '`';
      const end = text.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        pushText();
        out.push({ t: 'code', v: text.slice(i + ticks.length, end).replace(/^ (.+) $/, '$1') });
        i = end + ticks.length;
        continue;
      }
    }
    if (ch === '[') {
      // One level of parentheses inside the target, as in Wikipedia links.
      const link = /^\[([^\]]*)\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:\s+"[^"]*")?\s*\)/.exec(rest);
      if (link) {
        const href = safeHref(link[2] ?? '');
        pushText();
        const label = parseInline(link[1] ?? '');
        if (href) out.push({ t: 'link', href, c: label });
        else out.push(...label);
        i += link[0].length;
        continue;
      }
    }
    if (ch === 'h' && (i === 0 || /[\s(]/.test(text[i - 1] ?? ''))) {
      const url = URL_RE.exec(rest);
      if (url) {
        pushText();
        out.push({ t: 'link', href: url[0], c: [{ t: 'text', v: url[0] }] });
        i += url[0].length;
        continue;
      }
    }
    const emphasis = /^(\*\*|__|~~|\*|_)/.exec(rest);
    if (emphasis) {
      const marker = emphasis[1] ?? '*';
      const intraword = marker.startsWith('_') && /\w/.test(text[i - 1] ?? '');
      const end = findClosing(text, marker, i + marker.length);
      if (!intraword && end > i + marker.length && !/\s/.test(text[i + marker.length] ?? '')) {
        pushText();
        const inner = parseInline(text.slice(i + marker.length, end));
        const t = marker === '~~' ? 'del' : marker.length === 2 ? 'strong' : 'em';
        out.push({ t, c: inner });
        i = end + marker.length;
        continue;
      }
    }
    buffer += ch;
    i++;
  }
  pushText();
  return out;
}

function findClosing(text: string, marker: string, from: number): number {
  let at = text.indexOf(marker, from);
  while (at >= 0) {
    const before = text[at - 1] ?? '';
    const after = text[at + marker.length] ?? '';
    const doubled = marker.length === 1 && after === marker;
    if (!/\s/.test(before) && !doubled && !(marker.startsWith('_') && /\w/.test(after))) return at;
    at = text.indexOf(marker, at + (doubled ? 2 : 1));
  }
  return -1;
}
