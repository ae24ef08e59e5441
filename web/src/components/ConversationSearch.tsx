import { useT } from '../i18n/I18nContext';
import { fold } from '../search/fold';

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

/** Props of {@link ConversationSearch}. */
export interface ConversationSearchProps {
  readonly query: string;
  readonly onQuery: (query: string) => void;
}

/** The search field over the conversations' titles. */
export function ConversationSearch({ query, onQuery }: ConversationSearchProps) {
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
