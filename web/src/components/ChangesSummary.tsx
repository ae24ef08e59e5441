import { useMemo } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { turnChanges } from '../render/turnChanges';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';
import { DiffDisclosure } from './DiffDisclosure';
import { FilePath } from './FilePath';

/** Props of {@link ChangesSummary}. */
export interface ChangesSummaryProps {
  /** The last message of an agent's turn (the one carrying its stop reason). */
  readonly messageId: string;
}

/**
 * A turn's "Changes": shown when it changed two files or more, each file opening to its diff
 * here, so the summary works whether or not the windowed list still draws the tool calls.
 */
export function ChangesSummary({ messageId }: ChangesSummaryProps) {
  const t = useT();
  const session = useSession();
  const messages = useStoreSelector(session.store, (state) => state.snapshot?.conversations.messages);
  const changes = useMemo(() => (messages ? turnChanges(messages, messageId) : []), [messages, messageId]);
  if (changes.length < 2) return null;
  return (
    <section class="changes-summary" aria-label={t('changesLabel')}>
      <h3 class="changes-title">{t('changesTitle', { count: changes.length })}</h3>
      <ul>
        {changes.map((change) => (
          <li key={change.path}>
            <DiffDisclosure
              diff={change}
              summary={
                <>
                  <FilePath path={change.path} />
                  {change.oldText === null && (
                    <span class="diff-badge diff-badge-new">{t('diffNewFile')}</span>
                  )}
                </>
              }
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
