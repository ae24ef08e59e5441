import { fold } from '../find/fold';
import { useT } from '../i18n/I18nContext';

/**
 * Does a conversation's title contain every word of the query (case and accents ignored)?
 *
 * @example matchesTitle('Trip to Zürich', 'zurich trip') // true
 */
export function matchesTitle(title: string, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const folded = fold(title);
  return words.every((word) => folded.includes(word));
}

/** Props of {@link ConversationTitleFilter}. */
export interface ConversationTitleFilterProps {
  readonly query: string;
  readonly onQuery: (query: string) => void;
}

/**
 * The field that filters the conversation list by title. Finding words inside the current
 * conversation is another thing: `find/` and FindBar.tsx.
 */
export function ConversationTitleFilter({ query, onQuery }: ConversationTitleFilterProps) {
  const t = useT();
  return (
    <input
      type="search"
      class="conversation-search"
      aria-label={t('searchConversations')}
      placeholder={t('searchConversations')}
      value={query}
      onInput={(event) => onQuery(event.currentTarget.value)}
    />
  );
}
