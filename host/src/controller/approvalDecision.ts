import type { Decider } from '@webbridge/contract';
import { ProtocolError } from '@webbridge/contract';
import type { ApprovalDecider, StoredApproval } from '../db/ApprovalTable';

/** Who answers from the host's own console. */
export const HOST_DECIDER: ApprovalDecider = Object.freeze({ kind: 'host', name: null, deviceId: null });

/** Who answers with the access code itself (no paired device). */
export const ACCESS_CODE_DECIDER: ApprovalDecider = Object.freeze({
  kind: 'accessCode',
  name: null,
  deviceId: null,
});

/** A paired device as the one who answers. */
export function deviceDecider(device: { readonly id: string; readonly name: string }): ApprovalDecider {
  return { kind: 'device', name: device.name, deviceId: device.id };
}

/** "on Pixel 7", "on this host", "with the access code": where an answer came from, in words. */
function placeOf(by: Decider): string {
  switch (by.kind) {
    case 'device':
      return `on ${by.name}`;
    case 'host':
      return 'on the host';
    case 'accessCode':
      return 'with the access code';
    default: {
      const never: never = by;
      return never;
    }
  }
}

/**
 * 422 for an answer to an approval that is no longer pending: what happened to it ("already
 * allowed on Pixel 7"), with the decision as a problem member so a page can show it at once.
 */
export function alreadyDecided(approval: Pick<StoredApproval, 'id' | 'decided'>): ProtocolError {
  const { decided } = approval;
  if (!decided)
    return new ProtocolError('not_applicable', 'That approval was cancelled: its reply was stopped.');
  const verb = decided.decision === 'allow' ? 'allowed' : 'denied';
  return new ProtocolError(
    'not_applicable',
    // The time travels as `decided.at`, for the page to show in its person's time zone.
    `That approval was already ${verb} ${placeOf(decided.by)}.`,
    { decided: { approvalId: approval.id, ...decided } },
  );
}
