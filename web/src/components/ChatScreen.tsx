import type { StoreState } from '@webbridge/client-sdk';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { FindMatch } from '../find/findInMessages';
import { highlightMatches } from '../find/highlightMatches';
import { useT } from '../i18n/I18nContext';
import { useBackgroundNotices } from '../pwa/useBackgroundNotices';
import { useOpenFromPush } from '../pwa/useOpenFromPush';
import { modifierHeld } from '../render/modifierKey';
import type { RevealRequest } from '../state/revealRequest';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';
import { useWatching } from '../state/WatchingContext';
import { AgentUnavailableBar } from './AgentUnavailableBar';
import { Composer } from './Composer';
import { CurrentFindBar } from './CurrentFindBar';
import { CurrentMessages } from './CurrentMessages';
import { LinkedConversationBar } from './LinkedConversationBar';
import { NoticeBar } from './NoticeBar';
import { PlanChecklist } from './PlanChecklist';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

/** Props of {@link ChatScreen}. */
export interface ChatScreenProps {
  readonly onDisconnect: () => void;
}

/**
 * What the screen around the messages shows. Not the messages: a streamed word changes only
 * those, and {@link CurrentMessages} alone renders them.
 */
function chatView({ snapshot, status, reloadRequired }: StoreState) {
  return {
    ready: snapshot !== null,
    status,
    reloadRequired,
    theme: snapshot?.settings.theme ?? 'system',
    running: snapshot !== null && snapshot.conversations.run.state !== 'idle',
    conversationId: snapshot?.conversationId ?? '',
    title: snapshot?.conversations.list.find((c) => c.id === snapshot.conversationId)?.title ?? '',
    waitingElsewhere: snapshot?.approvals.some((a) => a.conversationId !== snapshot.conversationId) ?? false,
  };
}

/** The connected page: sidebar (a drawer on phones), the conversation and the composer. */
export function ChatScreen({ onDisconnect }: ChatScreenProps) {
  const session = useSession();
  const t = useT();
  const { ready, status, reloadRequired, theme, running, conversationId, title, waitingElsewhere } =
    useStoreSelector(session.store, chatView);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  // Find in this conversation: whether the bar is open, a count that asks it to take the
  // focus, and the match it went to last (with its query and the reveal's number).
  const [findOpen, setFindOpen] = useState(false);
  const [findFocus, setFindFocus] = useState(0);
  const [found, setFound] = useState<{ match: FindMatch; query: string; reveal: RevealRequest } | null>(null);
  const revealSeq = useRef(0);
  const watching = useWatching();
  useBackgroundNotices(session.store);
  const fromLink = useOpenFromPush(session, ready);
  // Stable, so the pure sidebar and top bar skip the renders of this screen.
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const openDrawer = useCallback(() => setDrawerOpen(true), []);
  const openFind = useCallback(() => {
    setFindOpen(true);
    setFindFocus((n) => n + 1);
  }, []);
  const closeFind = useCallback(() => {
    setFindOpen(false);
    setFound(null);
  }, []);
  const goToMatch = useCallback(
    (match: FindMatch | null, query: string) =>
      setFound(match && { match, query, reveal: { messageId: match.messageId, seq: ++revealSeq.current } }),
    [],
  );

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  // Find is in one conversation: going to another closes it, as a page's find closes when
  // the page changes.
  useEffect(() => {
    setFindOpen(false);
    setFound(null);
  }, [conversationId]);

  // The matches in the message gone to, drawn once the list has it on screen; gone on close.
  useEffect(() => {
    const scroller = document.querySelector('.messages');
    if (!found || !scroller) return;
    return highlightMatches(scroller, found.match.messageId, found.query, found.match.occurrence);
  }, [found]);

  // The key handler reads what is on screen now: an effect re-registered after each render
  // would run after paint, so an Escape pressed as a reply starts could meet the old state.
  // Esc stops only what is shown live, as the Stop button does (a stale "running" may be over).
  const live = status === 'live';
  const current = useRef({ running, drawerOpen, watching, live, ready });
  current.current = { running, drawerOpen, watching, live, ready };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Ctrl+F (⌘F) opens the page's own find: the list draws only the messages near the
      // screen, so the browser's would miss the rest. Pressed again in the find bar, it is
      // left to the browser, whose find then opens.
      if (modifierHeld(event) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'f') {
        const inBar = event.target instanceof Element && event.target.closest('.find-bar');
        if (event.defaultPrevented || inBar || !current.current.ready) return;
        event.preventDefault();
        setFindOpen(true);
        setFindFocus((n) => n + 1);
        return;
      }
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (current.current.drawerOpen) {
        setDrawerOpen(false);
        return;
      }
      if (current.current.running && !current.current.watching && current.current.live) {
        void session.sensitive((client) => client.stop());
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [session]);

  if (!ready) return <p class="loading">{t('connecting')}</p>;

  return (
    <div class={`shell${drawerOpen ? ' drawer-open' : ''}${watching ? ' watching' : ''}`}>
      <Sidebar onNavigate={closeDrawer} onClose={closeDrawer} onDisconnect={onDisconnect} />
      <button type="button" class="scrim" aria-label={t('closeMenu')} tabIndex={-1} onClick={closeDrawer} />
      <main
        class={`chat${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          if (watching || !event.dataTransfer?.types.includes('Files')) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(event) => {
          if (event.currentTarget === event.target) setDragging(false);
        }}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          const files = event.dataTransfer?.files;
          if (files && files.length > 0) void session.uploads.add(files, conversationId);
        }}
      >
        <TopBar
          title={title || t('newChat')}
          onMenu={openDrawer}
          findOpen={findOpen}
          onFind={openFind}
          waitingElsewhere={waitingElsewhere}
        />
        {reloadRequired && (
          <div class="banner" role="alert">
            {t('protocolMismatch')}{' '}
            <button type="button" onClick={() => location.reload()}>
              {t('reload')}
            </button>
          </div>
        )}
        <NoticeBar />
        <LinkedConversationBar {...fromLink} />
        {findOpen && <CurrentFindBar focusSeq={findFocus} onGo={goToMatch} onClose={closeFind} />}
        <CurrentMessages reveal={found?.reveal ?? null} />
        <PlanChecklist />
        <AgentUnavailableBar />
        {watching ? (
          <p class="watching-bar" role="status">
            {t('watchingBar')}
          </p>
        ) : (
          <Composer />
        )}
      </main>
    </div>
  );
}
