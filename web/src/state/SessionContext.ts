import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './createSession';

/** The connected session, provided by the chat screen to everything inside it. */
export const SessionContext = createContext<Session | null>(null);

/** The connected session; throws when used outside the chat screen (a wiring bug). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside SessionContext');
  return session;
}
