import { describe, expect, it } from 'vitest';
import { actionSchema } from './actions';
import {
  identityKey,
  identityOf,
  madeAgainst,
  REQUIRED_GUARD_FIELDS,
  type SessionIdentity,
  sameIdentity,
  sessionIdentitySchema,
} from './identity';

const current: SessionIdentity = { instanceId: 'i', sessionRevision: 3, conversationId: 'c', projectId: 'p' };

/** The identity with one field changed. */
function moved(field: keyof SessionIdentity): SessionIdentity {
  const value = current[field];
  return { ...current, [field]: typeof value === 'number' ? value + 1 : `${value}-other` };
}

const FIELDS = Object.keys(sessionIdentitySchema.shape) as (keyof SessionIdentity)[];

describe('the session identity rules', () => {
  it('identityOf keeps exactly the schema’s identity fields', () => {
    const state = { ...current, conversations: { list: [] }, settings: {} };
    expect(Object.keys(identityOf(state)).sort()).toEqual([...FIELDS].sort());
    expect(sessionIdentitySchema.strict().parse(identityOf(state))).toEqual(current);
  });

  it('every identity field counts in each comparison', () => {
    for (const field of FIELDS) {
      expect(sameIdentity(moved(field), current), field).toBe(false);
      expect(madeAgainst(moved(field), current), field).toBe(false);
      expect(identityKey(moved(field)), field).not.toBe(identityKey(current));
    }
    expect(sameIdentity(identityOf(current), current)).toBe(true);
    expect(sameIdentity(undefined, current)).toBe(false);
    expect(madeAgainst(current, current)).toBe(true);
  });

  it('a guard without instanceId is checked on the other three fields', () => {
    const { instanceId: _omitted, ...guard } = current;
    expect(madeAgainst(guard, current)).toBe(true);
    expect(madeAgainst({ ...guard, sessionRevision: 2 }, current)).toBe(false);
  });

  it('the required guard fields are the identity fields but instanceId, and sensitive actions carry them', () => {
    expect([...REQUIRED_GUARD_FIELDS].sort()).toEqual(FIELDS.filter((f) => f !== 'instanceId').sort());
    const send = actionSchema.options.find((o) => o.shape.action.value === 'send')!;
    for (const field of REQUIRED_GUARD_FIELDS) expect(Object.keys(send.shape)).toContain(field);
  });
});
