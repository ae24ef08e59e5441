import { useEffect, useRef, useState } from 'preact/hooks';
import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import { announce } from '../render/announce';
import { type CopyOutcome, copyText } from '../render/copyText';

/** Props of {@link CopyButton}. */
export interface CopyButtonProps {
  /** The text to copy, or a function that gives it at the moment of the click. */
  readonly text: string | (() => string);
  /** What the button copies, for its accessible name ("Copy code", "Copy message"). */
  readonly label: string;
  /** The element whose text is selected when copying is impossible (plain HTTP, refused). */
  readonly selectTarget?: () => Element | null;
  /**
   * Keeps the button's place but hides it (nothing to copy yet, as before a reply's first
   * word): appearing later would move what is beside it.
   * @default false
   */
  readonly hidden?: boolean;
}

const SAID: { readonly [O in CopyOutcome]: MessageKey } = {
  copied: 'copied',
  selected: 'copySelected',
  failed: 'copyFailed',
};

/** How long the outcome stays on the button. @default 2000 */
const SHOWN_MS = 2000;

/**
 * A small button that copies text (see {@link copyText} for the fallbacks) and says what
 * happened, on the button and to screen readers (through the page's one live region).
 */
export function CopyButton({ text, label, selectTarget, hidden = false }: CopyButtonProps) {
  const t = useT();
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const onClick = async () => {
    const result = await copyText(typeof text === 'function' ? text() : text, selectTarget?.());
    setOutcome(result);
    announce(t(SAID[result]));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOutcome(null), SHOWN_MS);
  };
  // As few nodes as possible: every message has one, and a long conversation has thousands.
  return (
    <button
      type="button"
      class={hidden ? 'copy-button copy-button-hidden' : 'copy-button'}
      disabled={hidden}
      aria-hidden={hidden || undefined}
      aria-label={outcome ? t('copyOutcome', { label, outcome: t(SAID[outcome]) }) : label}
      data-outcome={outcome ?? undefined}
      onClick={() => void onClick()}
    >
      {t(outcome ? SAID[outcome] : 'copy')}
    </button>
  );
}
