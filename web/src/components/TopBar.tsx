import { useT } from '../i18n/I18nContext';
import { pure } from '../render/pure';
import { useWatching } from '../state/WatchingContext';
import { AgentPicker } from './AgentPicker';
import { ApprovalMark } from './ApprovalMark';
import { ConnectionBadge } from './ConnectionBadge';
import { Icon } from './Icon';
import { ShortcutsHelp } from './ShortcutsHelp';

/** Props of {@link TopBar}. */
export interface TopBarProps {
  readonly title: string;
  readonly onMenu: () => void;
  /** An approval waits in a conversation other than the one on screen: the menu button says so. */
  readonly waitingElsewhere?: boolean;
  /** Opens find in this conversation (or gives its field the focus again). */
  readonly onFind: () => void;
  /** The find bar is open. */
  readonly findOpen?: boolean;
}

/** The bar over the conversation: menu (phones), the conversation's title, find, connection state. */
export const TopBar = pure(function TopBar({
  title,
  onMenu,
  waitingElsewhere = false,
  onFind,
  findOpen = false,
}: TopBarProps) {
  const watching = useWatching();
  const t = useT();
  return (
    <header class="topbar">
      <button
        type="button"
        class="icon menu-button"
        aria-label={waitingElsewhere ? `${t('openMenu')}: ${t('approvalsWaitElsewhere')}` : t('openMenu')}
        onClick={onMenu}
      >
        <Icon name="menu" />
        {waitingElsewhere && <ApprovalMark label={t('approvalsWaitElsewhere')} />}
      </button>
      {/* A title in another script reads (and is cut short) in its own direction. */}
      <h1 class="topbar-title" title={title} dir="auto">
        {title}
      </h1>
      {watching && (
        <span class="badge badge-watching" title={t('watchingBadgeTitle')}>
          <Icon name="eye" /> {t('watchingBadge')}
        </span>
      )}
      <AgentPicker />
      <button
        type="button"
        class="icon find-button"
        aria-label={t('findInConversation')}
        title={t('findInConversation')}
        aria-expanded={findOpen}
        onClick={onFind}
      >
        <Icon name="search" />
      </button>
      <ShortcutsHelp />
      <ConnectionBadge />
    </header>
  );
});
