import { createContext, type JSX } from 'preact';
import { useContext } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import type { FootnoteToken } from './extensions';

/**
 * The footnotes of one message: their numbers, by first reference (so a number, once shown,
 * never changes while the reply grows) and the element ids, unique on the page.
 */
export interface Footnotes {
  readonly prefix: string;
  readonly numbers: Map<string, number>;
}

/** The current message's footnotes (a mutable map with the message's lifetime). */
export const FootnoteContext = createContext<Footnotes>({ prefix: 'fn-', numbers: new Map() });

/**
 * The id of a footnote's definition (`ref` false) or of its first reference. Both kinds carry a
 * marker of the same length after the prefix: with a marker on one kind only, the definition of
 * `[^ref-x]` and the reference of `[^x]` shared an id, and a jump could land on the wrong note.
 */
function footnoteId(notes: Footnotes, label: string, ref: boolean): string {
  return `${notes.prefix}${ref ? 'ref-' : 'def-'}${encodeURIComponent(label)}`;
}

// In-page links scroll instead of changing the address: the fragment carries the access code.
function jumpTo(id: string): JSX.MouseEventHandler<HTMLAnchorElement> {
  return (event) => {
    event.preventDefault();
    const target = document.getElementById(id);
    target?.scrollIntoView({ block: 'center' });
    target?.focus({ preventScroll: true });
  };
}

/** A reference: its number, raised, linking to the definition. */
export function FootnoteRef({ label }: { readonly label: string }) {
  const notes = useContext(FootnoteContext);
  const t = useT();
  const number = notes.numbers.get(label);
  const id = footnoteId(notes, label, false);
  return (
    <sup class="footnote-ref">
      <a
        href={`#${id}`}
        id={footnoteId(notes, label, true)}
        onClick={jumpTo(id)}
        aria-label={t('footnote', { label: number ?? label })}
      >
        {number ?? label}
      </a>
    </sup>
  );
}

/** Props of {@link FootnoteList}. */
export interface FootnoteListProps {
  readonly definitions: readonly FootnoteToken[];
  readonly render: (definition: FootnoteToken) => JSX.Element | JSX.Element[];
}

/** The definitions at the end of the message, in reference order, each linking back. */
export function FootnoteList({ definitions, render }: FootnoteListProps) {
  const notes = useContext(FootnoteContext);
  const t = useT();
  if (definitions.length === 0) return null;
  const order = (d: FootnoteToken) => notes.numbers.get(d.label) ?? Number.MAX_SAFE_INTEGER;
  const sorted = [...definitions].sort((a, b) => order(a) - order(b));
  return (
    <section class="footnotes" aria-label={t('footnotes')}>
      <ol>
        {sorted.map((definition) => {
          const number = notes.numbers.get(definition.label);
          return (
            <li
              key={definition.label}
              id={footnoteId(notes, definition.label, false)}
              tabIndex={-1}
              value={number}
            >
              {render(definition)}
              {number !== undefined && (
                <a
                  href={`#${footnoteId(notes, definition.label, true)}`}
                  class="footnote-back"
                  aria-label={t('footnoteBack', { number })}
                  onClick={jumpTo(footnoteId(notes, definition.label, true))}
                >
                  ↩
                </a>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
