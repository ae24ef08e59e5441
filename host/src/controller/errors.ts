import { ProtocolError } from '@webbridge/contract';

/** 404: the id names nothing the controller knows (`what` is e.g. "conversation"). */
export function notFound(what: string): ProtocolError {
  return new ProtocolError('not_found', `There is no such ${what}.`);
}

/** 422: the action is well-formed but does not apply to the current state. */
export function notApplicable(detail: string): ProtocolError {
  return new ProtocolError('not_applicable', detail);
}
