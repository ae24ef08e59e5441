import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadHighlighter } from '../markdown/loadHighlighter';
import { hastToPreact } from '../render/hastToPreact';
import { whenIdle } from '../render/whenIdle';
import { CopyButton } from './CopyButton';

/** Props of {@link CodeBlock}. */
export interface CodeBlockProps {
  readonly code: string;
  readonly lang: string;
  /** False while the block is still streaming (no closing fence yet): no highlighting then. */
  readonly complete: boolean;
}

// Highlighted blocks by language and code: a message that renders again (a re-mount when
// scrolled back, a branch switch) does not highlight again.
const cache = new Map<string, ComponentChildren>();
const CACHE_LIMIT = 200;

/**
 * A code block with its language, a copy button, and syntax highlighting applied in idle
 * time once the block is complete (the highlighter is loaded then, not with the page). The
 * colours change, the size does not: nothing moves when highlighting arrives.
 */
export function CodeBlock({ code, lang, complete }: CodeBlockProps) {
  const key = `${lang}\n${code}`;
  const [highlighted, setHighlighted] = useState<{ key: string; nodes: ComponentChildren } | null>(() =>
    cache.has(key) ? { key, nodes: cache.get(key) } : null,
  );
  const pre = useRef<HTMLPreElement>(null);
  const wanted = complete && lang !== '' && highlighted?.key !== key;
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    const cancelIdle = whenIdle(() => {
      void loadHighlighter().then(({ highlight }) => {
        if (cancelled) return;
        let nodes = cache.get(key);
        if (nodes === undefined) {
          const tree = highlight(code, lang);
          nodes = tree ? hastToPreact(tree) : null;
          if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value ?? '');
          cache.set(key, nodes);
        }
        setHighlighted({ key, nodes });
      });
    }, 500);
    return () => {
      cancelled = true;
      cancelIdle();
    };
  }, [wanted, key, code, lang]);
  const nodes = highlighted?.key === key ? highlighted.nodes : null;
  return (
    <div class="code-block" data-lang={lang || undefined}>
      <div class="code-head">
        <span class="code-lang">{lang || 'text'}</span>
        <CopyButton text={code} label="Copy code" selectTarget={() => pre.current} />
      </div>
      <pre ref={pre}>
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
