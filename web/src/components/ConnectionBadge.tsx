import type { ConnectionStatus } from '@webbridge/client-sdk';
import { useStoreState } from '../state/hooks';
import { useSession } from '../state/SessionContext';

const LABEL: { readonly [S in ConnectionStatus]: string } = {
  connecting: 'Connecting',
  live: 'Live',
  reconnecting: 'Reconnecting',
  offline: 'Offline',
  unauthorized: 'Code refused',
};

/** The connection state, always visible: live, reconnecting or offline. */
export function ConnectionBadge() {
  const { status } = useStoreState(useSession().store);
  return (
    <output
      class={`badge badge-${status}`}
      data-status={status}
      aria-live="polite"
      aria-label={`Connection: ${LABEL[status]}`}
    >
      <span class="dot" aria-hidden="true" />
      {LABEL[status]}
    </output>
  );
}
