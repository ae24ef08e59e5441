import { ProtocolError } from '@webbridge/contract';

/** The protocol code a call throws, 'no throw', or 'not a ProtocolError': for the tests' tables. */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof ProtocolError ? error.code : 'not a ProtocolError';
  }
  return 'no throw';
}
