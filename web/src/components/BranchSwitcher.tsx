import { useT } from '../i18n/I18nContext';
import { useSession } from '../state/SessionContext';
import type { Message } from '../state/types';

/** Props of {@link BranchSwitcher}. */
export interface BranchSwitcherProps {
  readonly message: Message;
  readonly disabled: boolean;
}

/** ‹ 2/3 ›: moves between the versions of a message (edits and regenerated replies). */
export function BranchSwitcher({ message, disabled }: BranchSwitcherProps) {
  const session = useSession();
  const t = useT();
  const { index, count } = message.sibling;
  const go = (target: number) => void session.sensitive((client) => client.branch(message.id, target));
  return (
    <nav class="branches" aria-label={t('versions')}>
      <button
        type="button"
        class="icon"
        aria-label={t('previousVersion')}
        disabled={disabled || index === 0}
        onClick={() => go(index - 1)}
      >
        ‹
      </button>
      <span class="branch-position">{t('versionPosition', { index: index + 1, count })}</span>
      <button
        type="button"
        class="icon"
        aria-label={t('nextVersion')}
        disabled={disabled || index >= count - 1}
        onClick={() => go(index + 1)}
      >
        ›
      </button>
    </nav>
  );
}
