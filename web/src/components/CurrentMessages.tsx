import { ProjectRootContext, projectRootOf } from '../state/ProjectRootContext';
import type { RevealRequest } from '../state/revealRequest';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';
import { MessageList } from './MessageList';

/**
 * The current conversation's messages: the one part of the chat a streamed word changes, so
 * the only one that selects the whole snapshot. The screen around it (sidebar, top bar,
 * composer) selects what it shows and stays as it is while a reply streams.
 */
export function CurrentMessages({ reveal }: { readonly reveal: RevealRequest | null }) {
  const snapshot = useStoreSelector(useSession().store, (state) => state.snapshot, Object.is);
  if (snapshot === null) return null;
  return (
    // The files its messages name are shown from the project's folder.
    <ProjectRootContext.Provider value={projectRootOf(snapshot, snapshot.conversationId)}>
      <MessageList key={snapshot.conversationId} snapshot={snapshot} reveal={reveal} />
    </ProjectRootContext.Provider>
  );
}
