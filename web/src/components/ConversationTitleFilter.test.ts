import { describe, expect, it } from 'vitest';
import { matchesTitle } from './ConversationTitleFilter';

describe('matchesTitle', () => {
  it('finds every word of the query in any order, ignoring case and accents', () => {
    expect(matchesTitle('Trip to Zürich', 'zurich')).toBe(true);
    expect(matchesTitle('Trip to Zürich', 'ZÜRICH trip')).toBe(true);
    expect(matchesTitle('Été à Paris', 'ete paris')).toBe(true);
    expect(matchesTitle('Trip to Zürich', 'trip bern')).toBe(false);
  });

  it('an empty or blank query matches everything', () => {
    expect(matchesTitle('anything', '')).toBe(true);
    expect(matchesTitle('anything', '   ')).toBe(true);
  });
});
