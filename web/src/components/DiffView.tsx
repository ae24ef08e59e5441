import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import type { Highlighter } from '../markdown/loadHighlighter';
import { loadHighlighter } from '../markdown/loadHighlighter';
import { computeDiff } from '../render/diffInWorker';
import { hastToPreact } from '../render/hastToPreact';
import { pure } from '../render/pure';
import type { DiffRow, UnifiedDiff } from '../render/unifiedDiff';
import { whenIdle } from '../render/whenIdle';
import type { FileDiff } from '../state/agentMessageTypes';
import { FilePath } from './FilePath';

/** Props of {@link DiffView}. */
export interface DiffViewProps {
  readonly diff: FileDiff;
}

/** Unchanged lines shown around each change while the diff is collapsed. */
const CONTEXT = 3;
/** Rows drawn while collapsed: a 5,000-line new file does not fill the phone's page at once. */
const ROW_LIMIT = 120;
/** Rows added per idle slice once the whole file is asked for: no long task on a slow phone. */
const ROW_STEP = 300;
/** Beyond this many rows the whole file is drawn without syntax colours (a line costs ~0.1 ms). */
const HIGHLIGHT_LIMIT = 1000;

/** The language lowlight knows a file by: its extension, which highlight.js takes as an alias. */
function languageOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
}

/**
 * One file's change as a unified diff: its path, whether it is new or deleted, +/− counts,
 * the changed hunks with a few lines around them (the whole file on "show more"), word-level
 * marks on modified lines and syntax colours on the others. Long lines wrap (see DECISIONS.md:
 * no sideways scrolling inside a list that scrolls down). The rows are computed in a worker
 * (render/diffInWorker.ts); the highlighter loads on demand, the first time a diff is drawn.
 */
export function DiffView({ diff }: DiffViewProps) {
  const t = useT();
  const [compact, setCompact] = useState<UnifiedDiff | undefined>(undefined);
  const [whole, setWhole] = useState<UnifiedDiff | undefined>(undefined);
  const [highlighter, setHighlighter] = useState<Highlighter | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [drawn, setDrawn] = useState(ROW_LIMIT);
  useEffect(() => {
    let live = true;
    void loadHighlighter().then((loaded) => live && setHighlighter(loaded));
    return () => {
      live = false;
    };
  }, []);
  // Computed off the main thread: a long file's diff is seconds of one task on a slow phone.
  useEffect(() => {
    let live = true;
    void computeDiff(diff.oldText, diff.newText, CONTEXT).then((rows) => live && setCompact(rows));
    return () => {
      live = false;
    };
  }, [diff.oldText, diff.newText]);
  useEffect(() => {
    if (!expanded) return;
    let live = true;
    void computeDiff(diff.oldText, diff.newText, Number.POSITIVE_INFINITY).then(
      (rows) => live && setWhole(rows),
    );
    return () => {
      live = false;
    };
  }, [expanded, diff.oldText, diff.newText]);
  const shown = (expanded ? whole : undefined) ?? compact;
  const total = shown?.rows.length ?? 0;
  const rows = shown ? shown.rows.slice(0, expanded && whole ? drawn : ROW_LIMIT) : [];
  // The whole file grows in slices, each in idle time, until all of it is drawn.
  useEffect(() => {
    if (!expanded || !whole || drawn >= total) return;
    return whenIdle(() => setDrawn((count) => count + ROW_STEP));
  }, [expanded, whole, drawn, total]);
  const colours = total <= HIGHLIGHT_LIMIT || !expanded ? highlighter : null;
  const canExpand =
    !expanded &&
    compact !== undefined &&
    (compact.rows.length > ROW_LIMIT || compact.rows.some((r) => r.kind === 'hunk'));
  const lang = languageOf(diff.path);
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
      {shown ? (
        <ul class="diff-lines" aria-label={t('diffLines')}>
          {rows.map((row, index) => (
            <DiffLine key={`${index}:${row.kind}:${row.line}`} row={row} lang={lang} highlighter={colours} />
          ))}
        </ul>
      ) : (
        <p class="diff-loading">{t('diffLoading')}</p>
      )}
      {canExpand && (
        <button type="button" class="diff-more" onClick={() => setExpanded(true)}>
          {t('diffShowMore')}
        </button>
      )}
    </section>
  );
}

const SIGN: { readonly [K in DiffRow['kind']]: string } = { add: '+', del: '−', same: ' ', hunk: '' };
const SPOKEN = { add: 'diffAdded', del: 'diffRemoved' } as const;

// Pure: a row draws once; growing the list or a parent's render leaves drawn rows alone.
const DiffLine = pure(function DiffLine({
  row,
  lang,
  highlighter,
}: {
  row: DiffRow;
  lang: string;
  highlighter: Highlighter | null;
}) {
  const t = useT();
  if (row.kind === 'hunk') {
    return (
      <li class="diff-line diff-line-hunk">
        <span class="diff-gap">{t('diffGap', { line: row.line })}</span>
      </li>
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
  } else if (highlighter && lang) {
    const tree = highlighter.highlight(row.text, lang);
    if (tree) text = hastToPreact(tree);
  }
  return (
    <li class={`diff-line diff-line-${row.kind}`}>
      <span class="diff-no" aria-hidden="true">
        {row.line}
      </span>
      <span class="diff-sign" aria-hidden="true">
        {SIGN[row.kind]}
      </span>
      {row.kind !== 'same' && <span class="visually-hidden">{t(SPOKEN[row.kind])} </span>}
      <code class="diff-text">{text === '' ? '\u200b' : text}</code>
    </li>
  );
});
