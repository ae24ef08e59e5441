import { useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { Markdown } from './Markdown';

/** Props of {@link ThoughtView}. */
export interface ThoughtViewProps {
  readonly text: string;
  readonly streaming: boolean;
}

/**
 * An agent's thinking, collapsed to one line ("Thinking…" while it streams, "Thought" after;
 * the contract records no duration) and opened on a tap. Its text renders only when open.
 */
export function ThoughtView({ text, streaming }: ThoughtViewProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <details
      class="body thought"
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>{t(streaming ? 'thinkingNow' : 'thoughtDone')}</summary>
      {open && (
        <div class="markdown thought-text" dir="auto">
          <Markdown text={text} />
        </div>
      )}
    </details>
  );
}
