import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { grammarOf } from '../markdown/grammars';
import { loadHighlighter } from '../markdown/loadHighlighter';
import { type HastNode, hastToPreact } from '../render/hastToPreact';
import { whenIdle } from '../render/whenIdle';
import { whenVisible } from '../render/whenVisible';
import { CopyButton } from './CopyButton';

/** Props of {@link CodeBlock}. */
export interface CodeBlockProps {
  readonly code: string;
  readonly lang: string;
  /** False while the block is still streaming (no closing fence yet): no highlighting then. */
  readonly complete: boolean;
}

// Highlighted trees by language and code: a message that renders again (a re-mount when
// scrolled back, a branch switch) does not highlight again. Trees, not elements: Preact
// elements are not to be mounted twice.
const cache = new Map<string, HastNode | null>();
const CACHE_LIMIT = 200;

/**
 * Runs `task` in idle time once the message list has finished adding a long conversation's
 * earlier messages (`aria-busy` on the list): loading and starting the highlighter is a long
 * task that would otherwise land between those steps.
 */
function whenSettled(task: () => void): () => void {
  let cancel = whenIdle(function attempt() {
    if (document.querySelector('.message-list[aria-busy="true"]')) cancel = whenIdle(attempt, 1000);
    else task();
  }, 500);
  return () => cancel();
}

/**
 * A code block with its language, a copy button, and syntax highlighting applied in idle
 * time once the block is complete and near the screen (the highlighter is loaded then, not
 * with the page). The colours change, the size does not: nothing moves when highlighting
 * arrives.
 */
export function CodeBlock({ code, lang, complete }: CodeBlockProps) {
  const t = useT();
  const key = `${lang}\n${code}`;
  const [highlighted, setHighlighted] = useState<{ key: string; tree: HastNode | null } | null>(() =>
    cache.has(key) ? { key, tree: cache.get(key) ?? null } : null,
  );
  const pre = useRef<HTMLPreElement>(null);
  // An unknown language stays plain, and loads nothing.
  const wanted = complete && grammarOf(lang) !== undefined && highlighted?.key !== key;
  useEffect(() => {
    const element = pre.current;
    if (!wanted || !element) return;
    let cancelled = false;
    let cancelIdle = () => {};
    // Only blocks near the screen: a long conversation does not highlight what is not seen.
    const cancelVisible = whenVisible(element, () => {
      cancelIdle = whenSettled(() => {
        void loadHighlighter(lang).then((highlighter) => {
          if (cancelled) return;
          // A grammar's chunk failed: plain text, and not cached (the block mounted again tries again).
          if (!highlighter) return setHighlighted({ key, tree: null });
          let tree = cache.get(key);
          if (tree === undefined) {
            tree = highlighter.highlight(code, lang);
            if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value ?? '');
            cache.set(key, tree);
          }
          setHighlighted({ key, tree });
        });
      });
    });
    return () => {
      cancelled = true;
      cancelVisible();
      cancelIdle();
    };
  }, [wanted, key, code, lang]);
  const nodes = useMemo<ComponentChildren>(
    () => (highlighted?.key === key && highlighted.tree ? hastToPreact(highlighted.tree) : null),
    [highlighted, key],
  );
  return (
    <div class="code-block" data-lang={lang || undefined}>
      <div class="code-head">
        <span class="code-lang">{lang || 'text'}</span>
        <CopyButton text={code} label={t('copyCode')} selectTarget={() => pre.current} />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long line scrolls sideways, and a keyboard must reach it (axe: scrollable-region-focusable) */}
      <pre ref={pre} tabIndex={0}>
        {/* A new element when highlighting arrives: the text node it replaces would otherwise
            be kept and cut to the first token, and Chromium counts that as a layout shift. */}
        {nodes ? (
          <code key="highlighted" class={`hljs language-${lang}`} data-highlighted="yes">
            {nodes}
          </code>
        ) : (
          <code key="plain">{code}</code>
        )}
      </pre>
    </div>
  );
}
