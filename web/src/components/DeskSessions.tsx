import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/I18nContext';
import { folderOf } from '../render/folderOf';
import type { ListedSession } from '../state/agentChromeTypes';
import { useSession } from '../state/SessionContext';
import type { Snapshot } from '../state/types';

/** Props of {@link DeskSessions}. */
export interface DeskSessionsProps {
  readonly agentId: string;
  readonly projects: Snapshot['projects']['list'];
  /** Called after a session was opened as the current conversation. */
  readonly onOpened: () => void;
}

/** Newest first; a session without a date goes last, its order kept. */
export function newestFirst(sessions: readonly ListedSession[]): ListedSession[] {
  const time = (s: ListedSession) => (s.updatedAt ? Date.parse(s.updatedAt) || 0 : 0);
  return [...sessions].sort((a, b) => time(b) - time(a));
}

/**
 * The sessions an agent lists (`agentSessions`: e.g. ones started in its own terminal at the
 * desk), newest first, each continued here with `openAgentSession`. Asked for on a tap, not on
 * opening the sheet: listing may start the agent's process.
 */
export function DeskSessions({ agentId, projects, onOpened }: DeskSessionsProps) {
  const session = useSession();
  const { t, format } = useI18n();
  const [sessions, setSessions] = useState<ListedSession[] | 'loading' | null>(null);

  const load = async () => {
    setSessions('loading');
    try {
      const result = await session.client.action({ action: 'agentSessions', agentId });
      setSessions(newestFirst(result.sessions));
    } catch (error) {
      setSessions(null);
      session.say(error instanceof Error ? error.message : t('errorGeneric'));
    }
  };

  // For the words only: the host picks the project whose workspace is the session's folder.
  const projectOf = (cwd: string) => projects.find((p) => folderOf(p.workspace.uri) === cwd);

  return (
    <section class="desk-sessions" aria-labelledby="desk-sessions-heading">
      <h3 id="desk-sessions-heading">{t('deskSessions')}</h3>
      {sessions === null && (
        <button type="button" onClick={() => void load()}>
          {t('deskSessionsShow')}
        </button>
      )}
      {sessions === 'loading' && <p role="status">{t('deskSessionsLoading')}</p>}
      {Array.isArray(sessions) && sessions.length === 0 && <p role="status">{t('deskSessionsNone')}</p>}
      {Array.isArray(sessions) && sessions.length > 0 && (
        <ul class="desk-session-list">
          {sessions.map((s) => {
            const title = s.title ?? t('deskSessionUntitled');
            const when =
              s.updatedAt && !Number.isNaN(Date.parse(s.updatedAt)) ? Date.parse(s.updatedAt) : null;
            return (
              <li key={s.sessionId} class="desk-session">
                <span class="desk-session-text">
                  <span class="desk-session-title" dir="auto">
                    {title}
                  </span>
                  <span class="desk-session-meta" dir="auto">
                    {projectOf(s.cwd)?.name ?? s.cwd}
                    {when !== null && ` · ${format.dateTime(when)}`}
                  </span>
                </span>
                <button
                  type="button"
                  aria-label={`${t('deskSessionContinue')}: ${title}`}
                  onClick={async () => {
                    const opened = await session.act({
                      action: 'openAgentSession',
                      agentId,
                      sessionId: s.sessionId,
                    });
                    if (opened) onOpened();
                  }}
                >
                  {t('deskSessionContinue')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
