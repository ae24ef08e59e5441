import { useMemo } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import type { FileDiff } from '../state/agentMessageTypes';
import { useSession } from '../state/SessionContext';
import type { Message } from '../state/types';
import { useStoreSelector } from '../state/useStoreSelector';
import { DiffDisclosure } from './DiffDisclosure';
import { FilePath } from './FilePath';

/** Props of {@link ChangesSummary}. */
export interface ChangesSummaryProps {
  /** The last message of an agent's turn (the one carrying its stop reason). */
  readonly messageId: string;
}

/**
 * The files an agent's turn changed, one entry each (its first old text to its last new text),
 * from the diffs of the turn's tool calls that completed. Each opens to its diff here, so the
 * summary works whether or not the windowed list still draws the tool calls themselves.
 */
export function turnChanges(messages: readonly Message[], lastId: string): FileDiff[] {
  const end = messages.findIndex((message) => message.id === lastId);
  const byPath = new Map<string, FileDiff>();
  for (let i = end; i >= 0; i--) {
    const message = messages[i];
    if (!message || message.role === 'user') break;
    const call = message.agentTool;
    if (call?.status !== 'completed') continue;
    // Walking back: the first diff met of a path is its last; earlier ones give the old text.
    for (const item of [...call.content].reverse()) {
      if (item.type !== 'diff') continue;
      const later = byPath.get(item.path);
      byPath.set(
        item.path,
        later
          ? { ...later, oldText: item.oldText }
          : { path: item.path, oldText: item.oldText, newText: item.newText },
      );
    }
  }
  return [...byPath.values()].reverse();
}

/** A turn's "Changes": shown when it changed two files or more. */
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
