import { describe, expect, it } from 'vitest';
import { terminalText } from './terminalText';

describe('terminalText', () => {
  it('leaves plain output as it is', () => {
    expect(terminalText('a\n\tb  c\n')).toBe('a\n\tb  c\n');
  });

  it('drops colour, cursor and hyperlink sequences', () => {
    expect(terminalText('\u001b[1;31merror\u001b[0m: \u001b[2Kx\n')).toBe('error: x\n');
    expect(terminalText('\u001b]8;;file:///a\u001b\\a.ts\u001b]8;;\u001b\\\n')).toBe('a.ts\n');
  });

  it('shows a redrawn line as the last drawing left it, written over from its start', () => {
    expect(terminalText('10%\r55%\r100%\n')).toBe('100%\n');
    // A shorter drawing leaves the end of the longer one, as on a terminal.
    expect(terminalText('downloading\rdone\n')).toBe('doneloading\n');
    // A line still being redrawn shows what it showed before the carriage return.
    expect(terminalText('building 3/10\r')).toBe('building 3/10');
    expect(terminalText('a\r\nb\r\n')).toBe('a\nb\n');
  });
});
