import { createHash } from 'node:crypto';
import { CONFIGURATION_PARTS, type Projection } from '@webbridge/contract';

/**
 * Computes the configuration signature: a hash of the contract's configuration parts
 * (`CONFIGURATION_PARTS`: everything but the current conversation's messages and the
 * fast-changing run state). When it changes, subscribers get a full snapshot.
 *
 * Memoised on the identity of its inputs: the host keeps unchanged groups by reference, so a
 * streamed word costs a few pointer comparisons, not a hash of the configuration.
 */
export function createSignatureCache(): (state: Projection) => string {
  let lastParts: unknown[] = [];
  let lastSignature = '';
  return (state) => {
    const parts = CONFIGURATION_PARTS.map((part) => part.read(state));
    if (parts.length === lastParts.length && parts.every((part, i) => part === lastParts[i])) {
      return lastSignature;
    }
    lastParts = parts;
    lastSignature = createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
    return lastSignature;
  };
}
