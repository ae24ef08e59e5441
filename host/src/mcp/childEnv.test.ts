import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/testController';
import { childLaunch } from './childEnv';

describe('childLaunch', () => {
  const host = { PATH: '/opt/x/bin:/usr/bin', HOME: '/home/me', OPENAI_API_KEY: 'sk-secret', USER: 'me' };

  it('gives the child only the configured variables and a minimal PATH', () => {
    const { env } = childLaunch('/abs/server', { TOKEN: 't' }, host);
    const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
    expect(Object.keys(defined).sort()).toEqual(['PATH', 'TOKEN']);
    // Node's folder, then the system's (once each: Node often lives in /usr/bin).
    expect(defined.PATH?.split(path.delimiter)).toEqual([
      ...new Set([path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin']),
    ]);
    // The variables the SDK would copy from the host are present, and undefined (left out).
    expect(env).toHaveProperty('HOME', undefined);
    expect(env).toHaveProperty('USER', undefined);
  });

  it('finds a bare command on the host PATH and puts its folder first', () => {
    const bin = tempDir();
    const program = path.join(bin, 'my-mcp');
    fs.writeFileSync(program, '#!/bin/sh\n', { mode: 0o755 });
    const launch = childLaunch('my-mcp', {}, { PATH: `/nowhere:${bin}` });
    expect(launch.command).toBe(program);
    expect(launch.env.PATH?.split(path.delimiter)[0]).toBe(bin);
  });

  it('keeps a configured PATH and an unknown command as they are', () => {
    const launch = childLaunch('no-such-mcp-cmd', { PATH: '/only/here' }, host);
    expect(launch).toMatchObject({ command: 'no-such-mcp-cmd', env: { PATH: '/only/here' } });
  });
});
