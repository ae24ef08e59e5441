import { useT } from '../i18n/I18nContext';
import type { Snapshot } from '../state/types';
import { useWatching } from '../state/WatchingContext';
import { ApprovalsPanel } from './ApprovalsPanel';
import { ConversationList } from './ConversationList';
import { DevicesPanel } from './DevicesPanel';
import { Icon } from './Icon';
import { ModelPicker } from './ModelPicker';
import { NotificationsToggle } from './NotificationsToggle';
import { ProjectPanel } from './ProjectPanel';
import { SettingsPanel } from './SettingsPanel';
import { ToolsList } from './ToolsList';

/** Props of {@link Sidebar}. */
export interface SidebarProps {
  readonly snapshot: Snapshot;
  /** Called after the person picked something (closes the drawer on phones). */
  readonly onNavigate: () => void;
  readonly onClose: () => void;
  readonly onDisconnect: () => void;
}

/** Conversations, project, model, tools, settings and pending approvals. */
export function Sidebar({ snapshot, onNavigate, onClose, onDisconnect }: SidebarProps) {
  const watching = useWatching();
  const t = useT();
  return (
    <nav class="sidebar" aria-label={t('sidebar')}>
      <div class="sidebar-head">
        <span class="brand">webbridge</span>
        <button type="button" class="icon close-button" aria-label={t('closeMenu')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      {snapshot.approvals.length > 0 && <ApprovalsPanel approvals={snapshot.approvals} />}
      {/* Watching: everything stays visible, nothing can be changed (a disabled fieldset
          disables every control inside it). */}
      <fieldset class="controls" disabled={watching}>
        <ConversationList snapshot={snapshot} onNavigate={onNavigate} />
        <ProjectPanel snapshot={snapshot} onNavigate={onNavigate} />
        <ModelPicker models={snapshot.models} />
        <ToolsList tools={snapshot.tools.list} servers={snapshot.tools.servers} />
        <SettingsPanel settings={snapshot.settings} tools={snapshot.tools.list} />
      </fieldset>
      <NotificationsToggle />
      <DevicesPanel />
      <button type="button" class="link-button disconnect" onClick={onDisconnect}>
        {t('disconnect')}
      </button>
    </nav>
  );
}
