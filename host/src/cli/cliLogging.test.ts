import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cliLogging } from './cliLogging';

function sink(isTTY: boolean) {
  const lines: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, lines };
}

describe('cliLogging', () => {
  it('writes readable lines to a terminal', async () => {
    const { stream, lines } = sink(true);
    cliLogging(stream, 'info').mcpLog('warn', 'MCP server "x" failed');
    await new Promise((r) => setTimeout(r, 20));
    expect(lines).toHaveLength(1);
    // [hh:mm:ss] WARN (mcp): message — with colour codes around the level.
    const plain = lines[0]!.replaceAll(`${String.fromCharCode(27)}[`, '').replace(/\d+(;\d+)*m/g, '');
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\] WARN \(mcp\): MCP server "x" failed$/);
  });

  it('writes JSON lines elsewhere, and honours the level', () => {
    const { stream, lines } = sink(false);
    const { mcpLog } = cliLogging(stream, 'warn');
    mcpLog('info', 'hidden');
    mcpLog('error', 'shown');
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([{ level: 50, name: 'mcp', msg: 'shown' }]);
  });
});
