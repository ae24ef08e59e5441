import { BridgeError } from '@webbridge/server';

/** 404: the id names nothing the controller knows (`what` is e.g. "conversation"). */
export function notFound(what: string): BridgeError {
  return new BridgeError('not_found', `There is no such ${what}.`);
}

/** 422: the action is well-formed but does not apply to the current state. */
export function notApplicable(detail: string): BridgeError {
  return new BridgeError('not_applicable', detail);
}
