/**
 * Splits a command line into words as a POSIX shell would for quoting only: spaces separate,
 * '...' keeps everything literal, "..." keeps spaces (with \" and \\ inside), a backslash
 * outside quotes escapes the next character. Nothing is expanded (no $VAR, globs or pipes):
 * the words go to `spawn` as they are.
 *
 * @example
 * ```ts
 * splitCommandLine(`node "/my dir/agent.js" --flag='a b'`); // ['node', '/my dir/agent.js', '--flag=a b']
 * ```
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new Error(`the command has an unclosed ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}
