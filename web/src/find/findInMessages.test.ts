import { describe, expect, it } from 'vitest';
import { findInMessages } from './findInMessages';
import { fold } from './fold';

const messages = [
  { id: 'm1', text: 'We met at the Café de Flore in 1998.' },
  { id: 'm2', text: 'The **cafe** was closed;\n  the CAFÉ next door was open, café after café.' },
  { id: 'm3', text: 'Nothing here.' },
  { id: 'm4', text: 'ΟΔΟΣ and ﬁsh' },
];

describe('fold', () => {
  it('folds case, accents, ligatures and the final sigma', () => {
    expect(fold('Zürich ÉTÉ')).toBe('zurich ete');
    expect(fold('ﬁsh')).toBe('fish');
    expect(fold('ΟΔΟΣ')).toBe(fold('οδος'));
  });
});

describe('findInMessages', () => {
  it('finds every occurrence in list order, case and accents ignored', () => {
    expect(findInMessages(messages, 'cafe')).toEqual([
      { messageId: 'm1', occurrence: 0 },
      { messageId: 'm2', occurrence: 0 },
      { messageId: 'm2', occurrence: 1 },
      { messageId: 'm2', occurrence: 2 },
      { messageId: 'm2', occurrence: 3 },
    ]);
    expect(findInMessages(messages, 'CAFÉ DE')).toEqual([{ messageId: 'm1', occurrence: 0 }]);
  });

  it('takes any white space in the text or the query as one space', () => {
    expect(findInMessages(messages, 'closed; the')).toEqual([{ messageId: 'm2', occurrence: 0 }]);
    expect(findInMessages(messages, '  closed;\tthe ')).toEqual([{ messageId: 'm2', occurrence: 0 }]);
  });

  it('finds the folded forms typed either way', () => {
    expect(findInMessages(messages, 'οδος')).toEqual([{ messageId: 'm4', occurrence: 0 }]);
    expect(findInMessages(messages, 'fish')).toEqual([{ messageId: 'm4', occurrence: 0 }]);
  });

  it('counts occurrences without overlap', () => {
    expect(findInMessages([{ id: 'a', text: 'aaaa' }], 'aa')).toHaveLength(2);
  });

  it('finds nothing for an empty or blank query, or a word that is not there', () => {
    expect(findInMessages(messages, '')).toEqual([]);
    expect(findInMessages(messages, '   ')).toEqual([]);
    expect(findInMessages(messages, 'tea')).toEqual([]);
  });

  it('sees a message that changed (a new object), not the text it had', () => {
    const before = { id: 's', text: 'streaming' };
    expect(findInMessages([before], 'done')).toEqual([]);
    expect(findInMessages([{ ...before, text: 'streaming done' }], 'done')).toHaveLength(1);
  });
});

describe('findable', () => {
  it('turns every run of white space, of any kind, into one space', async () => {
    const { findable } = await import('./findInMessages');
    expect(findable('a b\tc\n\n d\u00a0e\u2003 f\u3000g')).toBe('a b c d e f g');
    expect(findable('a \u200b b')).toBe('a \u200b b');
  });
});
