import type { MessageStatus } from './snapshot';

/**
 * The statuses of a last reply that `continue` resumes: one its user stopped, and one that
 * failed (a dropped connection to the model, a timeout), which the person may want finished.
 * The host's controller, the web mocks and the web UI's "Continue" button share this rule.
 */
export const CONTINUABLE_STATUSES: readonly MessageStatus[] = ['stopped', 'error'];

/** Whether `continue` applies to a last reply with this status (see {@link CONTINUABLE_STATUSES}). */
export function isContinuable(status: MessageStatus): boolean {
  return CONTINUABLE_STATUSES.includes(status);
}
