import { describe, expect, it } from 'vitest';
import { DEFAULT_UPLOAD_LIMIT, MAX_JSON } from './limits';

describe('limits', () => {
  it('match DESIGN.md', () => {
    expect(MAX_JSON).toBe(262_144);
    expect(DEFAULT_UPLOAD_LIMIT).toBe(26_214_400);
  });
});
