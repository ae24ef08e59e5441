import { CONFIGURATION_PARTS, DELTA_PARTS, type Projection, type StatePart } from '@webbridge/contract';
import { aProjection } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { createSignatureCache } from './configSignature';
import { diffProjection, isEmptyDelta } from './diffProjection';

const base: Projection = aProjection();

/** Another value of the same kind: a changed part, whatever part it is. */
function another(value: unknown): unknown {
  if (typeof value === 'string') return `${value}-changed`;
  if (typeof value === 'number') return value + 1;
  if (Array.isArray(value)) return [...value, { id: 'added', text: '' }];
  return { ...(value as object), changed: true };
}

/** `state` with one part replaced by another value (a new object along its path). */
function changed(state: Projection, part: StatePart): Projection {
  const [group, inner] = part.path;
  const record = state as unknown as Record<string, Record<string, unknown>>;
  if (inner === undefined) return { ...state, [group]: another(record[group]) };
  return { ...state, [group]: { ...record[group], [inner]: another(record[group]![inner]) } };
}

describe('the signature and the diff follow the contract’s split', () => {
  it('a change of any configuration part changes the signature (so a snapshot is sent)', () => {
    for (const part of CONFIGURATION_PARTS) {
      const signature = createSignatureCache();
      expect(signature(changed(base, part)), part.path.join('.')).not.toBe(signature(base));
    }
  });

  it('a change of any delta part is in the diff and leaves the signature alone', () => {
    for (const part of DELTA_PARTS) {
      const signature = createSignatureCache();
      const next = changed(base, part);
      expect(isEmptyDelta(diffProjection(base, next)), part.path.join('.')).toBe(false);
      expect(signature(next), part.path.join('.')).toBe(signature(base));
    }
  });
});
