import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * Whether nothing runs in the current conversation (edits, branches and regeneration are
 * possible). A context rather than a prop of each message: when a reply starts or ends, only
 * the small action bars re-render, not every message of a long conversation.
 */
export const IdleContext = createContext(true);

/** Whether nothing runs in the current conversation. */
export function useIdle(): boolean {
  return useContext(IdleContext);
}
