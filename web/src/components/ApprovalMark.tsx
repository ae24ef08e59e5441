/** Props of {@link ApprovalMark}. */
export interface ApprovalMarkProps {
  /** What it marks, for those who cannot see the dot (and as a tooltip). */
  readonly label: string;
}

/**
 * A dot that says an approval waits there: beside a conversation in the list, and on the menu
 * button while one waits in a conversation other than the one on screen.
 */
export function ApprovalMark({ label }: ApprovalMarkProps) {
  return <span class="approval-mark" role="img" aria-label={label} title={label} />;
}
