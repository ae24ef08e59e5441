/**
 * Folds case and accents for searching, so "cafe" finds "Café" and "ÉTÉ" finds "été": the
 * compatibility decomposition (NFKD, which also splits ligatures such as "ﬁ"), without its
 * combining marks, in lower case. Shared by the title filter (ConversationTitleFilter.tsx) and find
 * in a conversation, so both find the same things.
 *
 * @example fold('Zürich') // 'zurich'
 */
export function fold(text: string): string {
  // Greek's final sigma is the same letter as σ; lower-casing "ΟΔΟΣ" whole gives "οδος" with
  // a final ς, one character at a time gives σ, and a person types either.
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();
  return folded.includes('ς') ? folded.replaceAll('ς', 'σ') : folded;
}
