import { createPortal } from 'preact/compat';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import type { Agent } from '../state/agentChromeTypes';
import { useSession } from '../state/SessionContext';
import type { Snapshot } from '../state/types';
import { DeskSessions } from './DeskSessions';

/** Props of {@link NewConversationSheet}. */
export interface NewConversationSheetProps {
  readonly agents: readonly Agent[];
  readonly projects: Snapshot['projects']['list'];
  /** The project chosen at first: the current one. */
  readonly projectId: string;
  /** Called after a conversation was started or opened (closes the drawer on phones). */
  readonly onDone: () => void;
  readonly onClose: () => void;
}

/** The words for an agent's state. */
function agentStateKey(state: Agent['state']): MessageKey {
  switch (state) {
    case 'idle':
      return 'agentStateIdle';
    case 'starting':
      return 'agentStateStarting';
    case 'ready':
      return 'agentStateReady';
    case 'failed':
      return 'agentStateFailed';
    case 'needs_sign_in':
      return 'agentStateNeedsSignIn';
  }
}

/**
 * A new conversation with a chosen agent in a chosen project, or a session the agent lists
 * (one started at the desk) continued. Each agent shows its state: one that needs a sign-in
 * shows the command to run on the host, one that failed says why. Drawn over the page (a portal:
 * the drawer it is opened from is transformed, which would hold a fixed sheet inside it).
 */
export function NewConversationSheet({
  agents,
  projects,
  projectId,
  onDone,
  onClose,
}: NewConversationSheetProps) {
  const session = useSession();
  const t = useT();
  const [agentId, setAgentId] = useState(agents[0]?.name);
  const [project, setProject] = useState(projectId);
  const [starting, setStarting] = useState(false);
  const sheet = useRef<HTMLDivElement>(null);
  const agent = agents.find((a) => a.name === agentId);
  // The latest onClose, read by the key handler: the sheet's effect runs once, on opening (a
  // parent's new arrow function each render must not move the focus again).
  const close = useRef(onClose);
  close.current = onClose;

  // The focus goes into the sheet and stays there (Tab cycles within it, as a modal's should),
  // Escape closes it (caught before the page's Escape, which would stop a reply), and the focus
  // goes back to what opened it.
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    sheet.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        close.current();
      } else if (event.key === 'Tab' && sheet.current) {
        const focusable = [
          ...sheet.current.querySelectorAll<HTMLElement>('button:not(:disabled), select, input:checked'),
        ];
        const first = focusable[0];
        const last = focusable.at(-1);
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last?.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first?.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const start = async () => {
    setStarting(true);
    const done = await session.act({
      action: 'newConversation',
      projectId: project,
      ...(agentId === undefined ? {} : { agentId }),
    });
    setStarting(false);
    if (done) onDone();
  };

  return createPortal(
    <div class="sheet-backdrop">
      <button type="button" class="sheet-scrim" aria-label={t('cancel')} tabIndex={-1} onClick={onClose} />
      <div
        ref={sheet}
        class="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="new-conversation-heading"
      >
        <h2 id="new-conversation-heading">{t('newConversationTitle')}</h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!starting) void start();
          }}
        >
          {agents.length > 0 && (
            <fieldset class="agent-choices">
              <legend>{t('agentLabel')}</legend>
              {agents.map((a) => (
                <label key={a.name} class={`agent-choice agent-${a.state}`}>
                  <input
                    type="radio"
                    name="agent"
                    value={a.name}
                    checked={a.name === agentId}
                    onChange={() => setAgentId(a.name)}
                  />
                  <span class="agent-choice-text">
                    <span class="agent-name" dir="auto">
                      {a.builtin ? t('agentBuiltinName') : (a.title ?? a.name)}
                      {a.version && <span class="agent-version"> {a.version}</span>}
                    </span>
                    <span class="agent-state">{t(agentStateKey(a.state))}</span>
                    {a.state === 'failed' && a.reason && (
                      <span class="agent-reason" dir="auto">
                        {a.reason}
                      </span>
                    )}
                    {a.state === 'needs_sign_in' && a.signIn && (
                      <span class="agent-sign-in">
                        {t('agentSignInRun')} <code dir="ltr">{a.signIn}</code>
                      </span>
                    )}
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          <label class="field">
            <span>{t('project')}</span>
            <select value={project} onChange={(event) => setProject(event.currentTarget.value)}>
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} · {p.workspace.name}
                </option>
              ))}
            </select>
          </label>
          <div class="sheet-actions">
            <button type="button" onClick={onClose}>
              {t('cancel')}
            </button>
            <button type="submit" class="primary" disabled={starting}>
              {t('startConversation')}
            </button>
          </div>
        </form>
        {agent && !agent.builtin && (
          <DeskSessions key={agent.name} agentId={agent.name} projects={projects} onOpened={onDone} />
        )}
      </div>
    </div>,
    document.body,
  );
}
