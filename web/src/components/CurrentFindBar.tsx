import { lazyComponent } from '../render/lazyComponent';
import { useSession } from '../state/SessionContext';
import type { Message } from '../state/types';
import { useStoreSelector } from '../state/useStoreSelector';
import type { FindBarProps } from './FindBar';

const NONE: readonly Message[] = [];

/** The bar itself, in its own chunk: the first paint never shows it. */
const FindBar = lazyComponent(() => import('./FindBar').then((module) => module.FindBar));

/**
 * The find bar over the current conversation's messages. Like the list, it selects them
 * itself, so the screen around it does not render again for each streamed word.
 */
export function CurrentFindBar(props: Omit<FindBarProps, 'messages'>) {
  const messages = useStoreSelector(
    useSession().store,
    (state) => state.snapshot?.conversations.messages ?? NONE,
    Object.is,
  );
  return <FindBar {...props} messages={messages} />;
}
