import type { StoreState } from '@webbridge/client-sdk';
import { useT } from '../i18n/I18nContext';
import { pure } from '../render/pure';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';
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
  /** Called after the person picked something (closes the drawer on phones). */
  readonly onNavigate: () => void;
  readonly onClose: () => void;
  readonly onDisconnect: () => void;
}

/**
 * What the sidebar shows: parts of the state that the store keeps by identity while a reply
 * streams (a word changes only the message list), so a streamed word does not render it.
 */
function sidebarView(state: StoreState) {
  const snapshot = state.snapshot;
  if (snapshot === null) return null;
  return {
    approvals: snapshot.approvals,
    conversations: snapshot.conversations.list,
    conversationId: snapshot.conversationId,
    projectId: snapshot.projectId,
    projects: snapshot.projects,
    models: snapshot.models,
    tools: snapshot.tools,
    settings: snapshot.settings,
  };
}

/** Conversations, project, model, tools, settings and pending approvals. */
export const Sidebar = pure(function Sidebar({ onNavigate, onClose, onDisconnect }: SidebarProps) {
  const watching = useWatching();
  const t = useT();
  const view = useStoreSelector(useSession().store, sidebarView);
  if (view === null) return null;
  return (
    <nav class="sidebar" aria-label={t('sidebar')}>
      <div class="sidebar-head">
        <span class="brand">webbridge</span>
        <button type="button" class="icon close-button" aria-label={t('closeMenu')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      {view.approvals.length > 0 && <ApprovalsPanel approvals={view.approvals} />}
      {/* Watching: everything stays visible, nothing can be changed (a disabled fieldset
          disables every control inside it). */}
      <fieldset class="controls" disabled={watching}>
        <ConversationList
          conversations={view.conversations}
          projectId={view.projectId}
          conversationId={view.conversationId}
          approvals={view.approvals}
          onNavigate={onNavigate}
        />
        <ProjectPanel projects={view.projects} projectId={view.projectId} onNavigate={onNavigate} />
        <ModelPicker models={view.models} />
        <ToolsList tools={view.tools.list} servers={view.tools.servers} />
        <SettingsPanel settings={view.settings} tools={view.tools.list} />
      </fieldset>
      <NotificationsToggle />
      <DevicesPanel />
      <button type="button" class="link-button disconnect" onClick={onDisconnect}>
        {t('disconnect')}
      </button>
    </nav>
  );
});
