import { useCallback, useEffect, useState } from 'preact/hooks';
import { I18nContext } from '../i18n/I18nContext';
import { useI18nState } from '../i18n/useI18nState';
import { forgetAccessCode, saveAccessCode, takeAccessCode } from '../state/accessCode';
import { createSession, type Session } from '../state/createSession';
import { useStoreState } from '../state/hooks';
import { type ProbeFailure, probeAccessCode } from '../state/probeAccessCode';
import { SessionContext } from '../state/SessionContext';
import { WatchingContext } from '../state/WatchingContext';
import { ChatScreen } from './ChatScreen';
import { ConnectPage, type ConnectProblem } from './ConnectPage';

/** Props of {@link App}. */
export interface AppProps {
  /** Origin of the bridge. @default location.origin */
  readonly baseUrl?: string;
}

/**
 * The page: the connection page until a code is accepted, then the chat. Goes back to the
 * connection page when the code stops working (the host rotated it).
 */
export function App({ baseUrl = location.origin }: AppProps) {
  const i18n = useI18nState(baseUrl);
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<ConnectProblem | null>(null);
  const [lastCode, setLastCode] = useState('');

  const connect = useCallback(
    async (code: string) => {
      setChecking(true);
      setProblem(null);
      setLastCode(code);
      // The session's own client checks the code; its store then already shows the state.
      const next = createSession({ baseUrl, accessCode: code });
      const result = await probeAccessCode(next.client);
      setChecking(false);
      if (!result.ok) {
        if (result.failure.kind === 'wrong_code') forgetAccessCode(window);
        setProblem(result.failure satisfies ProbeFailure);
        return;
      }
      saveAccessCode(window, code);
      next.start();
      setSession(next);
    },
    [baseUrl],
  );

  useEffect(() => {
    const code = takeAccessCode(window);
    if (code !== null) void connect(code);
  }, [connect]);

  const disconnect = useCallback(
    (reason: ConnectProblem | null) => {
      session?.close();
      forgetAccessCode(window);
      setSession(null);
      setProblem(reason);
    },
    [session],
  );

  return (
    <I18nContext.Provider value={i18n}>
      {session === null ? (
        <ConnectPage checking={checking} problem={problem} initialCode={lastCode} onConnect={connect} />
      ) : (
        <SessionContext.Provider value={session}>
          {/* The probe's answer said what the code allows; a view code only watches. */}
          <WatchingContext.Provider value={session.client.access === 'view'}>
            <Connected session={session} onDisconnect={disconnect} />
          </WatchingContext.Provider>
        </SessionContext.Provider>
      )}
    </I18nContext.Provider>
  );
}

function Connected({
  session,
  onDisconnect,
}: {
  session: Session;
  onDisconnect: (reason: ConnectProblem | null) => void;
}) {
  const { status } = useStoreState(session.store);
  useEffect(() => {
    if (status === 'unauthorized') onDisconnect({ kind: 'rotated' });
  }, [status, onDisconnect]);
  useEffect(() => () => session.close(), [session]);
  return <ChatScreen onDisconnect={() => onDisconnect(null)} />;
}
