import type { ApprovalDecision } from '@webbridge/contract';

/** The catalogue's phrase for each answer and where it came from. */
const PHRASE = {
  allow: { device: 'decidedAllowDevice', host: 'decidedAllowHost', accessCode: 'decidedAllowCode' },
  deny: { device: 'decidedDenyDevice', host: 'decidedDenyHost', accessCode: 'decidedDenyCode' },
} as const satisfies {
  readonly [D in ApprovalDecision['decision']]: { readonly [K in ApprovalDecision['by']['kind']]: string };
};

/** A phrase that says how an approval was answered ("Allowed on {device} at {time}"). */
export type DecisionKey = (typeof PHRASE)[ApprovalDecision['decision']][ApprovalDecision['by']['kind']];

/**
 * The catalogue key for how an approval was answered and where: the app's decision line and
 * the service worker's replacement notification say the same.
 */
export function decisionKey(decided: ApprovalDecision): DecisionKey {
  return PHRASE[decided.decision][decided.by.kind];
}
