import { diffWordsWithSpace, structuredPatch } from 'diff';

/** A run of a modified line's text, marked when it is what changed. */
export interface DiffWord {
  readonly text: string;
  readonly changed: boolean;
}

/** One row of a unified diff. */
export interface DiffRow {
  /** `hunk`: the gap between two hunks (lines not shown), its `text` empty. */
  readonly kind: 'add' | 'del' | 'same' | 'hunk';
  /** The line's number in the new file (in the old one for a removed line). */
  readonly line: number;
  readonly text: string;
  /** On a removed or added line paired with its counterpart: the words that changed. */
  readonly words?: readonly DiffWord[];
}

/** A file change as rows to draw, with its counts. */
export interface UnifiedDiff {
  /** `new`: no old text; `delete`: no new text left; `modify`: the rest. */
  readonly change: 'new' | 'delete' | 'modify';
  readonly added: number;
  readonly removed: number;
  readonly rows: readonly DiffRow[];
}

/** Lines beyond which a pair of modified lines is not compared word by word (cost, not value). */
const WORD_LIMIT = 500;

/**
 * The unified diff of one file's change: `context` unchanged lines around each hunk (`Infinity`
 * for the whole file), modified lines paired (the n-th removed line of a block with its n-th
 * added one) and compared word by word. jsdiff does the line and word diffs.
 *
 * @example unifiedDiff('a\nb\n', 'a\nc\n', 3).rows // same a, del b (b marked), add c (c marked)
 */
export function unifiedDiff(oldText: string | null, newText: string, context: number): UnifiedDiff {
  const change = oldText === null ? 'new' : newText === '' && oldText !== '' ? 'delete' : 'modify';
  const patch = structuredPatch('a', 'b', oldText ?? '', newText, '', '', {
    context: Number.isFinite(context) ? context : Number.MAX_SAFE_INTEGER,
  });
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  for (const [index, hunk] of patch.hunks.entries()) {
    if (index > 0 || hunk.oldStart > 1 || hunk.newStart > 1)
      rows.push({ kind: 'hunk', line: hunk.newStart, text: '' });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    let dels: { line: number; text: string }[] = [];
    let adds: { line: number; text: string }[] = [];
    const flush = () => {
      const paired = Math.min(dels.length, adds.length);
      for (const [i, del] of dels.entries())
        rows.push(pairedRow('del', del, i < paired ? adds[i] : undefined));
      for (const [i, add] of adds.entries())
        rows.push(pairedRow('add', add, i < paired ? dels[i] : undefined));
      dels = [];
      adds = [];
    };
    for (const raw of hunk.lines) {
      const sign = raw[0];
      const text = raw.slice(1);
      if (sign === '-') {
        dels.push({ line: oldLine++, text });
        removed++;
      } else if (sign === '+') {
        adds.push({ line: newLine++, text });
        added++;
      } else if (sign === ' ') {
        flush();
        rows.push({ kind: 'same', line: newLine, text });
        oldLine++;
        newLine++;
      }
      // '\' (no newline at end of file) says nothing a person reviewing needs.
    }
    flush();
  }
  return { change, added, removed, rows };
}

function pairedRow(
  kind: 'add' | 'del',
  row: { line: number; text: string },
  other: { line: number; text: string } | undefined,
): DiffRow {
  if (!other || row.text.length > WORD_LIMIT || other.text.length > WORD_LIMIT) return { kind, ...row };
  const [before, after] = kind === 'del' ? [row.text, other.text] : [other.text, row.text];
  const words: DiffWord[] = [];
  for (const part of diffWordsWithSpace(before, after)) {
    if (kind === 'del' ? part.added : part.removed) continue;
    words.push({ text: part.value, changed: part.added || part.removed });
  }
  return { kind, ...row, words };
}
