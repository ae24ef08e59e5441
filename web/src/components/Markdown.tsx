import { useEffect, useState } from 'preact/hooks';
import { loadMarkdown, markdownIfLoaded, preloadMarkdown } from '../markdown/loadMarkdown';

/** Props of {@link Markdown}. */
export interface MarkdownProps {
  readonly text: string;
}

preloadMarkdown();

/**
 * Renders markdown as elements and text nodes only (never HTML strings), so a reply cannot
 * inject markup. The renderer (marked and the code that turns its tokens into elements) is
 * its own chunk; until it has arrived the text shows as written.
 */
export function Markdown({ text }: MarkdownProps) {
  const [module, setModule] = useState(markdownIfLoaded);
  useEffect(() => {
    if (module) return;
    let cancelled = false;
    void loadMarkdown().then((loaded) => {
      if (!cancelled) setModule(loaded);
    });
    return () => {
      cancelled = true;
    };
  }, [module]);
  if (!module) return <p class="markdown-source">{text}</p>;
  return <module.MarkdownView text={text} />;
}
