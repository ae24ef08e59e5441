import { describe, expect, it } from 'vitest';
import { formatLastEventId, formatStateTag, parseLastEventId, parseStateTag } from './lastEventId';

describe('event ids and the state tag', () => {
  it('round-trips an event id and the state tag that quotes it', () => {
    expect(parseLastEventId(formatLastEventId('i_Q7vX2k', 43))).toEqual({ instanceId: 'i_Q7vX2k', seq: 43 });
    expect(formatStateTag('i_Q7vX2k', 43)).toBe('"i_Q7vX2k.43"');
    expect(parseStateTag(formatStateTag('i_Q7vX2k', 43))).toEqual({ instanceId: 'i_Q7vX2k', seq: 43 });
  });

  it('reads nothing from a tag it did not build', () => {
    for (const tag of [
      null,
      undefined,
      '',
      'i_Q7vX2k.43',
      'W/"i_Q7vX2k.43"',
      '"i_Q7vX2k"',
      '"a.b"',
      '"i.1"x',
    ])
      expect(parseStateTag(tag)).toBeUndefined();
  });
});
