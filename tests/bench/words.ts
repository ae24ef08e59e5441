const VOCABULARY = (
  'the of and to in is that it for as with was on be by this are or from at an which but not have ' +
  'has had were can all their there been one if would will more when so some these what about into ' +
  'than them only other its time could new two may then do first any like my now over such our man ' +
  'me even most made after also did many before must through back years where much your way well ' +
  'down should because each just those people how too little state good very make world still own ' +
  'see men work long get here between both life being under never day same another know while last ' +
  'might us great old year off come since against go came right used take three conversation stream ' +
  'message snapshot browser controller project function variable database network response request'
).split(' ');

/**
 * `count` English words separated by single spaces (about six bytes a word with its space),
 * deterministic so that runs are comparable.
 */
export function words(count: number, seed = 1): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(VOCABULARY[x % VOCABULARY.length]!);
  }
  return out.join(' ');
}
