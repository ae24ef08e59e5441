import type { Projection } from '@webbridge/contract';
import { aProjection } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { withModels } from './withModels';

describe('withModels', () => {
  const models = { current: 'other', list: [] };

  it('changes the models alone and keeps every other group the same object', () => {
    const before: Projection = { ...aProjection(), agents: { list: [] } };
    const after = withModels(before, models);
    expect(after).toStrictEqual({ ...before, models });
    for (const key of Object.keys(before) as (keyof Projection)[]) {
      if (key !== 'models') expect(after[key]).toBe(before[key]);
    }
  });

  it('leaves an absent agents group absent, not present as undefined', () => {
    const { agents: _, ...before } = aProjection();
    const after = withModels(before, models);
    expect('agents' in after).toBe(false);
    expect(Object.keys(after)).toEqual(Object.keys(before));
  });
});
