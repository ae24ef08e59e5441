import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type FindMatch, findInMessages } from '../find/findInMessages';
import { useI18n } from '../i18n/I18nContext';
import type { Message } from '../state/types';
import { Icon } from './Icon';

/** How long typing must pause before the conversation is searched, in milliseconds. */
export const FIND_DEBOUNCE_MS = 120;

/** Props of {@link FindBar}. */
export interface FindBarProps {
  /** The messages of the conversation on screen (its current branch). */
  readonly messages: readonly Message[];
  /** Changes each time the bar is asked for again (Ctrl+F while open): the field takes the focus. */
  readonly focusSeq: number;
  /** Go to this match (or to none: nothing matches), with the query that found it. */
  readonly onGo: (match: FindMatch | null, query: string) => void;
  readonly onClose: () => void;
}

/**
 * Find in this conversation: the page's own, because the list draws only the messages near
 * the screen and the browser's find sees only those. Searches the messages' text as written
 * (case and accents ignored) once typing pauses; a new query goes to the latest match, the
 * one nearest where the person reads. Enter and Shift+Enter go to the next and previous
 * match (wrapping), Escape closes the bar and only that (a running reply keeps running).
 */
export function FindBar({ messages, focusSeq, onGo, onClose }: FindBarProps) {
  const { t, format } = useI18n();
  const field = useRef<HTMLInputElement>(null);
  const bar = useRef<HTMLElement>(null);
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<readonly FindMatch[] | null>(null);
  const [index, setIndex] = useState(0);
  // What the handlers need now, not as of their render (Enter right after typing).
  const now = useRef({ query, matches, index, messages, scanned: '' });
  now.current = { ...now.current, query, matches, index, messages };

  const go = (found: readonly FindMatch[], at: number) => {
    now.current.index = at;
    setIndex(at);
    onGo(found[at] ?? null, now.current.query);
  };

  /**
   * Searches for the query now and goes to its latest match, unless the results are for this
   * query already. Says whether it searched (then Enter has gone somewhere already).
   */
  const scan = (): boolean => {
    const { query: text, matches: found, messages: list } = now.current;
    if (found && now.current.scanned === text) return false;
    const next = findInMessages(list, text);
    now.current = { ...now.current, matches: next, scanned: text };
    setMatches(next);
    go(next, Math.max(0, next.length - 1));
    return true;
  };

  useEffect(() => {
    if (query.trim() === '') {
      now.current.scanned = '';
      setMatches(null);
      onGo(null, '');
      return;
    }
    const timer = setTimeout(scan, FIND_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  // The conversation changed (a reply streamed, a message edited): count again once it
  // settles, staying on the same match where it still exists, without moving the view.
  useEffect(() => {
    if (now.current.scanned === '') return;
    const timer = setTimeout(() => {
      const { matches: before, index: at, query: text } = now.current;
      const next = findInMessages(messages, text);
      const kept = before?.[at];
      const same = kept
        ? next.findIndex((m) => m.messageId === kept.messageId && m.occurrence === kept.occurrence)
        : -1;
      const index = same >= 0 ? same : Math.min(at, Math.max(0, next.length - 1));
      now.current = { ...now.current, matches: next, index };
      setMatches(next);
      setIndex(index);
    }, FIND_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [messages]);

  // Focus is given back to where it was (the button that opened the bar) when the bar goes
  // with the focus in it; not when it goes because the person went elsewhere.
  useLayoutEffect(() => {
    const before = document.activeElement;
    const element = bar.current;
    return () => {
      const now = document.activeElement;
      const ours = !now || now === document.body || element?.contains(now);
      if (ours && before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  useLayoutEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [focusSeq]);

  const step = (by: 1 | -1) => {
    if (now.current.query.trim() === '' || scan()) return;
    const found = now.current.matches ?? [];
    if (found.length > 0) go(found, (now.current.index + by + found.length) % found.length);
  };

  const total = matches?.length ?? 0;
  const count =
    matches === null || query.trim() === ''
      ? ''
      : total === 0
        ? t('findNone')
        : t('findCount', { current: format.number(index + 1), total: format.number(total) });

  return (
    <search
      ref={bar}
      class="find-bar"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // Marked as handled: the page's Escape (stop the reply) leaves it alone.
        event.preventDefault();
        onClose();
      }}
    >
      <input
        ref={field}
        type="text"
        class="find-field"
        enterKeyHint="search"
        aria-label={t('findInConversation')}
        placeholder={t('findInConversation')}
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.isComposing) return;
          event.preventDefault();
          step(event.shiftKey ? -1 : 1);
        }}
      />
      <span class="find-count" role="status" aria-live="polite">
        {count}
      </span>
      <button
        type="button"
        class="icon"
        aria-label={t('findPrevious')}
        title={t('findPrevious')}
        disabled={total === 0}
        onClick={() => step(-1)}
      >
        <Icon name="up" />
      </button>
      <button
        type="button"
        class="icon"
        aria-label={t('findNext')}
        title={t('findNext')}
        disabled={total === 0}
        onClick={() => step(1)}
      >
        <Icon name="down" />
      </button>
      <button type="button" class="icon" aria-label={t('findClose')} title={t('findClose')} onClick={onClose}>
        <Icon name="close" />
      </button>
    </search>
  );
}
