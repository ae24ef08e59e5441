import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { FileDiff } from '../state/agentMessageTypes';
import { DiffView } from './DiffView';

/** Props of {@link DiffDisclosure}. */
export interface DiffDisclosureProps {
  readonly diff: FileDiff;
  /** What the closed line says. */
  readonly summary: ComponentChildren;
  readonly initiallyOpen?: boolean;
  readonly class?: string;
}

/**
 * A file's diff behind a one-line disclosure, drawn only once opened: a turn of many edits
 * does not compute or draw the diffs nobody looked at.
 */
export function DiffDisclosure({
  diff,
  summary,
  initiallyOpen = false,
  class: className,
}: DiffDisclosureProps) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <details
      class={className}
      open={initiallyOpen}
      data-diff-for={diff.path}
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>{summary}</summary>
      {open && <DiffView diff={diff} />}
    </details>
  );
}
