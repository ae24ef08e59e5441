import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { grammarOf } from '../markdown/grammars';
import type { Highlighter } from '../markdown/loadHighlighter';
import { loadHighlighter } from '../markdown/loadHighlighter';
import { coloursToPreact } from '../render/coloursToPreact';
import { type ComputedDiff, computeDiff } from '../render/diffInWorker';
import type { ColouredRow } from '../render/diffMessages';
import { hastToPreact } from '../render/hastToPreact';
import { pure } from '../render/pure';
import type { DiffRow } from '../render/unifiedDiff';
import { whenIdle } from '../render/whenIdle';
import type { FileDiff } from '../state/agentMessageTypes';
import { FilePath } from './FilePath';

/** Props of {@link DiffView}. */
export interface DiffViewProps {
  readonly diff: FileDiff;
}

/** Unchanged lines shown around each change while the diff is collapsed. */
const CONTEXT = 3;
/** Rows drawn at first: a 5,000-line change does not put 5,000 rows in the page at once. */
const ROW_LIMIT = 120;
/** Rows each "show more" adds. */
const ROW_STEP = 200;

/** The language lowlight knows a file by: its extension, which highlight.js takes as an alias. */
function languageOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
}

/** The key a row keeps in both the collapsed and the whole file's rows, so a drawn row stays. */
const keyOf = (row: DiffRow) => `${row.kind}:${row.line}`;

/** The whole file's rows once asked for, with the collapsed rows that were drawn when it was. */
interface Whole {
  readonly diff: ComputedDiff;
  /** Where the collapsed rows drawn when the whole file was asked for are in it: they stay drawn. */
  readonly kept: ReadonlySet<number>;
}

/**
 * One file's change as a unified diff: its path, whether it is new or deleted, +/− counts,
 * the changed hunks with a few lines around them, word-level marks on modified lines and syntax
 * colours on the others. Long lines wrap (see DECISIONS.md: no sideways scrolling inside a list
 * that scrolls down). The rows are computed and coloured in a worker (render/diffInWorker.ts:
 * the file's grammars, its extension's and those it embeds, load there on demand); only where no
 * worker runs does the page load the highlighter and colour the rows itself.
 *
 * Drawn in bounds, for a slow phone (tests/bench/agentDiffSlowPhone.ts): the first
 * {@link ROW_LIMIT} rows, then {@link ROW_STEP} more per "show more"; once every changed hunk
 * is drawn, "show the whole file" fills the gaps between them. Rows go into the page in idle
 * slices sized to the time the last slice took ({@link useSlices}), so no task draws hundreds
 * of highlighted rows at once.
 */
export function DiffView({ diff }: DiffViewProps) {
  const t = useT();
  const [compact, setCompact] = useState<ComputedDiff | undefined>(undefined);
  const [whole, setWhole] = useState<Whole | undefined>(undefined);
  const lang = languageOf(diff.path);
  const [target, setTarget] = useState(ROW_LIMIT);
  const lines = useRef<HTMLDivElement>(null);
  // Computed and coloured off the main thread: a long file's diff is seconds of one task on a
  // slow phone, and its first highlight (the grammar compiled) the card's longest task.
  useEffect(() => {
    let live = true;
    void computeDiff(diff.oldText, diff.newText, CONTEXT, lang).then((rows) => live && setCompact(rows));
    return () => {
      live = false;
    };
  }, [diff.oldText, diff.newText, lang]);
  const list = whole?.diff ?? compact;
  // The page colours only rows the worker did not (no worker, or its grammar failed to load).
  const highlighter = useHighlighter(lang, list !== undefined && !list.coloured);
  const total = list?.total ?? 0;
  const arrived = useArrived(list, Math.min(target, total));
  // The worker sends rows as far as the card will draw them (more on "show more").
  useEffect(() => list?.want(Math.min(target, total)), [list, target, total]);
  const ready = list !== undefined && (list.coloured || highlighter !== undefined);
  const perLine = useCharsPerLine(lines, ready);
  // Drawn as the worker's messages arrive: the first rows need not wait for the 4,000th.
  const drawn = useSlices(ready ? Math.min(target, total, arrived) : 0, whole);
  const rows = useMemo(() => {
    if (!list) return [];
    if (!whole) return list.rows.slice(0, drawn);
    // The gaps fill from the top while the rows seen before stay where they were.
    return list.rows.filter((_, index) => index < drawn || whole.kept.has(index));
  }, [list, whole, drawn]);
  // Lines left out: a gap between two hunks, or unchanged lines after the last one.
  const gaps = compact?.gaps ?? false;
  const showWhole = async () => {
    if (!compact) return;
    const seen = new Set(compact.rows.slice(0, drawn).map(keyOf));
    const computed = await computeDiff(diff.oldText, diff.newText, Number.POSITIVE_INFINITY, lang);
    // Where the rows seen are in the whole file is known once all its rows are in.
    computed.want(Number.POSITIVE_INFINITY);
    await computed.complete;
    const kept = new Set<number>();
    computed.rows.forEach((row, index) => {
      if (seen.has(keyOf(row))) kept.add(index);
    });
    // Everything down to the last row seen is drawn: the gaps above it fill in, nothing seen goes.
    setTarget(Math.max(ROW_LIMIT, ...[...kept].slice(-1).map((index) => index + 1)));
    setWhole({ diff: computed, kept });
  };
  const more = Math.min(ROW_STEP, total - target);
  const change = compact?.change ?? (diff.oldText === null ? 'new' : 'modify');
  return (
    <section
      class={`diff diff-${change}`}
      aria-label={t('diffOf', { path: diff.path })}
      data-diff-path={diff.path}
    >
      <header class="diff-head">
        {change === 'new' && <span class="diff-badge diff-badge-new">{t('diffNewFile')}</span>}
        {change === 'delete' && <span class="diff-badge diff-badge-delete">{t('diffDeletedFile')}</span>}
        <FilePath path={diff.path} />
        {compact && (
          <span
            class="diff-counts"
            title={t('diffCounts', { added: compact.added, removed: compact.removed })}
          >
            <span class="visually-hidden">
              {t('diffCounts', { added: compact.added, removed: compact.removed })}
            </span>
            <span class="diff-count-add" aria-hidden="true">
              +{compact.added}
            </span>{' '}
            <span class="diff-count-del" aria-hidden="true">
              −{compact.removed}
            </span>
          </span>
        )}
      </header>
      {ready ? (
        // biome-ignore lint/a11y/useSemanticElements: rows go in groups the browser skips off screen, which a <ul> may not hold
        <div ref={lines} class="diff-lines" role="list" aria-label={t('diffLines')}>
          {groupsOf(rows).map((group) => (
            <div
              key={group.key}
              class="diff-rows"
              style={{ '--lines': String(wrappedLines(group.rows, perLine)) }}
            >
              {group.rows.map((row) => (
                <DiffLine
                  key={keyOf(row)}
                  row={row}
                  lang={lang}
                  highlighter={list.coloured ? null : (highlighter ?? null)}
                />
              ))}
            </div>
          ))}
        </div>
      ) : (
        <p class="diff-loading">{t('diffLoading')}</p>
      )}
      {ready && more > 0 ? (
        <button type="button" class="diff-more" onClick={() => setTarget((count) => count + ROW_STEP)}>
          {t('diffShowLines', { count: more })}
        </button>
      ) : (
        ready &&
        !whole &&
        gaps && (
          <button type="button" class="diff-more" onClick={() => void showWhole()}>
            {t('diffShowMore')}
          </button>
        )
      )}
    </section>
  );
}

/**
 * The page's highlighter for `lang` once its grammars are loaded, where the rows came uncoloured
 * (`wanted`; null otherwise, and nothing loads): undefined while they load, null where there is
 * none (an unknown language: at once, nothing loads) or a chunk failed. Rows wait for it, so that
 * colours arriving later do not redraw every drawn row in one task; they wait only for the
 * grammars of this file's language, not for every language's.
 */
function useHighlighter(lang: string, wanted: boolean): Highlighter | null | undefined {
  const [loaded, setLoaded] = useState<{ lang: string; highlighter: Highlighter | null } | undefined>(
    undefined,
  );
  const known = wanted && grammarOf(lang) !== undefined;
  useEffect(() => {
    if (!known) return;
    let live = true;
    void loadHighlighter(lang).then((highlighter) => live && setLoaded({ lang, highlighter }));
    return () => {
      live = false;
    };
  }, [lang, known]);
  if (!known) return null;
  return loaded?.lang === lang ? loaded.highlighter : undefined;
}

/**
 * How many of `list`'s rows have arrived so far. The component is drawn again when more arrive
 * only while fewer than `wanted` (the rows to draw) are in: once those are, a message of rows
 * costs the page its reading alone, not a render of the card.
 */
function useArrived(list: ComputedDiff | undefined, wanted: number): number {
  const [, redraw] = useState(0);
  const arrived = list?.rows.length ?? 0;
  const short = useRef(false);
  short.current = arrived < wanted;
  useEffect(() => {
    if (!list) return;
    return list.listen(() => {
      if (!short.current) return;
      short.current = false;
      redraw((n) => n + 1);
    });
  }, [list]);
  // Rows that came between this render and the listener above.
  useEffect(() => {
    if (list && arrived < wanted && list.rows.length > arrived) redraw((n) => n + 1);
  }, [list, arrived, wanted]);
  return arrived;
}

/** File lines per group of rows (a group is what the browser skips while it is off screen). */
const GROUP_LINES = 40;
/** Most rows in a group: a long run of removed lines has no new-file lines to split it by. */
const GROUP_MOST = 80;

/** Rows drawn together, skipped together by the browser while off screen (agentMessages.css). */
interface RowGroup {
  readonly key: string;
  readonly rows: ColouredRow[];
}

/**
 * The drawn rows in groups by their place in the new file (every {@link GROUP_LINES} lines), so
 * that a row keeps its group, and so its element, whether the collapsed diff or the whole file is
 * drawn, and whatever was drawn above it. A removed line joins the group before it (a new one
 * past {@link GROUP_MOST} rows).
 */
function groupsOf(rows: readonly ColouredRow[]): RowGroup[] {
  const groups: (RowGroup & { bucket: number })[] = [];
  for (const row of rows) {
    const current = groups.at(-1);
    // A gap names the new file's line it comes before: it goes where that line goes.
    if (row.kind !== 'del') {
      const bucket = Math.floor(row.line / GROUP_LINES);
      if (current?.bucket === bucket) current.rows.push(row);
      else groups.push({ key: `g${bucket}`, bucket, rows: [row] });
    } else if (current && current.rows.length < GROUP_MOST) current.rows.push(row);
    else groups.push({ key: `${row.kind}${row.line}`, bucket: current?.bucket ?? 0, rows: [row] });
  }
  return groups;
}

/** The screen lines a group's rows take, wrapped at `perLine` characters (a guess while unknown). */
function wrappedLines(rows: readonly DiffRow[], perLine = 40): number {
  let lines = 0;
  for (const row of rows) lines += Math.max(1, Math.ceil(row.text.length / perLine));
  return lines;
}

/** A monospace character's width over its font size (DejaVu Sans Mono, Menlo, Consolas: ~0.6). */
const MONO_ADVANCE = 0.6;

/**
 * How many characters a row's text column holds, measured once the first rows are drawn: each
 * row that the browser skips (off screen, `content-visibility: auto`) is given the height its
 * text would wrap to, so that rows coming into view barely move what is below them (a button
 * under the diff that a thumb is reaching for).
 */
function useCharsPerLine(list: { readonly current: HTMLElement | null }, ready: boolean): number | undefined {
  const [perLine, setPerLine] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!ready || perLine !== undefined) return;
    // Read once the browser has laid the first rows out for their frame: read in the render's
    // own task, the layout was forced there (156 ms of the diff's first task at 6x) instead of
    // going to the frame's task.
    return whenIdle(() => {
      const text = list.current?.querySelector<HTMLElement>('.diff-line .diff-text');
      if (!text) return;
      const size = Number.parseFloat(getComputedStyle(text).fontSize) || 13;
      setPerLine(Math.max(8, Math.floor(text.clientWidth / (size * MONO_ADVANCE))));
    });
  }, [ready, perLine, list]);
  return perLine;
}

/** Rows of the first slice, before any slice has been timed. */
const FIRST_SLICE = 12;
/** Main-thread time a slice aims at: its style and layout follow in the same task's frame. */
const SLICE_BUDGET_MS = 24;
/**
 * Fewest rows a later slice adds: each slice also costs a frame's paint and hit tests over the
 * rows already drawn (docs/PERFORMANCE.md), so slices of a few rows made 200 rows take 15 s on
 * the slow phone.
 */
const MIN_SLICE = 40;
/**
 * Most rows a slice adds: the slice is timed by its render alone, and a slice grown to 400 rows
 * was one idle callback of 209 ms at 6x (agentDiffSlowPhone.ts traced); rows drawn off screen no
 * longer cost their layout and paint (content-visibility), so more, smaller slices cost little.
 */
const MAX_SLICE = 120;

/**
 * How many of `target` rows to draw now: a first small slice at once, then more in idle
 * callbacks, each slice sized from the time the previous one took to render (a fast desk draws
 * hundreds at a time, a slow phone a dozen), until `target` is reached. A new `generation`
 * (another list) starts again from none.
 */
function useSlices(target: number, generation: unknown): number {
  const state = useRef({ generation, drawn: 0, slice: FIRST_SLICE });
  if (state.current.generation !== generation)
    state.current = { generation, drawn: 0, slice: state.current.slice };
  // The first slice in the very render that has rows to draw: a small diff appears whole, and
  // the list never shows empty.
  if (state.current.drawn === 0 && target > 0) state.current.drawn = Math.min(target, state.current.slice);
  const started = useRef<number | undefined>(undefined);
  const [, redraw] = useState(0);
  const drawn = Math.min(state.current.drawn, target);
  // Timed after the commit: the render and the DOM it built (the browser's layout comes later,
  // hence a budget well under the 100 ms a task may take).
  useLayoutEffect(() => {
    if (started.current === undefined) return;
    const spent = Math.max(1, performance.now() - started.current);
    started.current = undefined;
    const current = state.current.slice;
    state.current.slice = Math.round(
      Math.min(MAX_SLICE, Math.max(MIN_SLICE, Math.min(current * 2, (current * SLICE_BUDGET_MS) / spent))),
    );
  }, [drawn]);
  useEffect(() => {
    if (drawn >= target) return;
    return whenIdle(() => {
      started.current = performance.now();
      state.current.drawn = Math.min(target, state.current.drawn + state.current.slice);
      redraw((n) => n + 1);
    });
  }, [drawn, target, generation]);
  return drawn;
}

const SIGN: { readonly [K in DiffRow['kind']]: string } = { add: '+', del: '−', same: ' ', hunk: '' };
const SPOKEN = { add: 'diffAdded', del: 'diffRemoved' } as const;

// Pure: a row draws once; growing the list or a parent's render leaves drawn rows alone.
const DiffLine = pure(function DiffLine({
  row,
  lang,
  highlighter,
}: {
  row: ColouredRow;
  lang: string;
  highlighter: Highlighter | null;
}) {
  const t = useT();
  if (row.kind === 'hunk') {
    return (
      // biome-ignore lint/a11y/useSemanticElements: in a group of rows (DiffView), not directly in a list
      <div class="diff-line diff-line-hunk" role="listitem">
        <span class="diff-gap">{t('diffGap', { line: row.line })}</span>
      </div>
    );
  }
  let text: ComponentChildren = row.text;
  if (row.words) {
    text = row.words.map((word, i) =>
      word.changed ? (
        <mark key={i} class="diff-word">
          {word.text}
        </mark>
      ) : (
        word.text
      ),
    );
  } else if (row.colours) {
    text = coloursToPreact(row.text, row.colours);
  } else if (highlighter && lang) {
    const tree = highlighter.highlight(row.text, lang);
    if (tree) text = hastToPreact(tree);
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: in a group of rows (DiffView), not directly in a list
    <div class={`diff-line diff-line-${row.kind}`} role="listitem">
      <span class="diff-no" aria-hidden="true">
        {row.line}
      </span>
      <span class="diff-sign" aria-hidden="true">
        {SIGN[row.kind]}
      </span>
      {row.kind !== 'same' && <span class="visually-hidden">{t(SPOKEN[row.kind])} </span>}
      <code class="diff-text">{text === '' ? '\u200b' : text}</code>
    </div>
  );
});
