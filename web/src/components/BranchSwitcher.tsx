import { useSession } from '../state/SessionContext';
import type { Message } from '../state/types';

/** Props of {@link BranchSwitcher}. */
export interface BranchSwitcherProps {
  readonly message: Message;
  readonly disabled: boolean;
}

/** ‹ 2/3 ›: moves between the versions of a message (edits and regenerated replies). */
export function BranchSwitcher({ message, disabled }: BranchSwitcherProps) {
  const session = useSession();
  const { index, count } = message.sibling;
  const go = (target: number) => void session.sensitive((client) => client.branch(message.id, target));
  return (
    <nav class="branches" aria-label="Versions">
      <button
        type="button"
        class="icon"
        aria-label="Previous version"
        disabled={disabled || index === 0}
        onClick={() => go(index - 1)}
      >
        ‹
      </button>
      <span class="branch-position">
        {index + 1}/{count}
      </span>
      <button
        type="button"
        class="icon"
        aria-label="Next version"
        disabled={disabled || index >= count - 1}
        onClick={() => go(index + 1)}
      >
        ›
      </button>
    </nav>
  );
}
