import stripAnsi from 'strip-ansi';

/**
 * A command's output as a terminal would have shown it: colour, cursor and hyperlink escape
 * sequences (CSI, OSC: what `npm test` or `cargo build` write when they think a person is
 * watching) removed, and a line redrawn with carriage returns (a progress line: `10%\r55%\r`)
 * shown as the last drawing left it, later text written over earlier from the line's start.
 * The agent still reads the raw output (ACP `terminal/output`); this is only how the page
 * shows it.
 *
 * @example
 * terminalText('\u001b[32mok\u001b[39m\n 10%\r100%\n'); // 'ok\n100%\n'
 */
export function terminalText(raw: string): string {
  const text = stripAnsi(raw);
  if (!text.includes('\r')) return text;
  return text
    .split('\n')
    .map((line) => (line.includes('\r') ? overwritten(line) : line))
    .join('\n');
}

/** One line's carriage-return segments, each written over the last from column 0. */
function overwritten(line: string): string {
  // A line ended with \r\n is an ordinary line: the \r before its end moves nothing on screen.
  const segments = line.split('\r');
  let shown = '';
  for (const segment of segments) shown = segment + shown.slice(segment.length);
  return shown;
}
