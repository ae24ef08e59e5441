/**
 * A reply of `words` words, echoed by the scripted model (a user message starting with `>`):
 * what the slow-phone benchmarks (slowPhone.ts, slowPhoneEngines.ts) stream, plain words with
 * some bold and code and a paragraph break every 60 words.
 */
export function streamedReply(words: number): string {
  const vocabulary = [
    'the',
    'reply',
    'grows',
    'one',
    'word',
    'at',
    'a',
    'time,',
    'with',
    '**bold**',
    '`code`',
    'and',
  ];
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    out.push(vocabulary[i % vocabulary.length] ?? 'word');
    if (i % 60 === 59) out.push('\n\n');
  }
  return out.join(' ');
}
