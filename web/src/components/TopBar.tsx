import { useWatching } from '../state/WatchingContext';
import { ConnectionBadge } from './ConnectionBadge';
import { Icon } from './Icon';

/** Props of {@link TopBar}. */
export interface TopBarProps {
  readonly title: string;
  readonly onMenu: () => void;
}

/** The bar over the conversation: menu (phones), the conversation's title, connection state. */
export function TopBar({ title, onMenu }: TopBarProps) {
  const watching = useWatching();
  return (
    <header class="topbar">
      <button type="button" class="icon menu-button" aria-label="Open menu" onClick={onMenu}>
        <Icon name="menu" />
      </button>
      <h1 class="topbar-title" title={title}>
        {title}
      </h1>
      {watching && (
        <span class="badge badge-watching" title="Connected with a view code: you can follow, not act">
          <Icon name="eye" /> Watching
        </span>
      )}
      <ConnectionBadge />
    </header>
  );
}
