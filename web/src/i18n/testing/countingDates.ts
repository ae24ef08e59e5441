import { type ComponentChildren, h } from 'preact';
import { vi } from 'vitest';
import type { Session } from '../../state/createSession';
import { SessionContext } from '../../state/SessionContext';
import { en } from '../catalogues/en';
import { createFormatters } from '../formatters';
import { type I18n, I18nContext } from '../I18nContext';
import { createTranslator } from '../translate';

/**
 * English, with its date formatter counted: for tests of what a first render formats (the
 * page's first formatted date makes its Intl.DateTimeFormat, ~0.1 s of a slow phone's opening).
 * `wrap` puts a component inside it and an empty session.
 *
 * @example
 * const { dateTime, wrap } = countingDates();
 * render(wrap(h(MessageItem, props)), root);
 * expect(dateTime).not.toHaveBeenCalled();
 */
export function countingDates() {
  const formatters = createFormatters('en');
  const dateTime = vi.fn(formatters.dateTime);
  const i18n: I18n = {
    language: 'en',
    dir: 'ltr',
    t: createTranslator(en, 'en'),
    format: { ...formatters, dateTime },
    hostLanguage: 'en',
    chosenLanguage: null,
    chooseLanguage: () => {},
  };
  const wrap = (component: ComponentChildren) =>
    h(I18nContext.Provider, { value: i18n }, h(SessionContext.Provider, { value: {} as Session }, component));
  return { formatters, dateTime, wrap };
}
