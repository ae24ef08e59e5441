import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * Whether the current conversation's history can fork or resume a reply (edit, branch,
 * regenerate, continue). False in an ACP agent's conversation: the agent holds its own
 * history, which only goes forward, and the host refuses those actions there (422). A context
 * for the same reason as IdleContext: the message list knows it once for all its messages.
 */
export const ForkableContext = createContext(true);

/** Whether the current conversation can fork or resume a reply. */
export function useForkable(): boolean {
  return useContext(ForkableContext);
}
