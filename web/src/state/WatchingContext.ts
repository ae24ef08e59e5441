import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * Whether the page is connected with a view code: it follows the host live but shows no
 * composer and no control (the server would refuse them with 403 `view_only` anyway).
 */
export const WatchingContext = createContext(false);

/** True when the page only watches (see {@link WatchingContext}). */
export function useWatching(): boolean {
  return useContext(WatchingContext);
}
