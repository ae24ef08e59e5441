import { describe, expect, it } from 'vitest';
import { lockScreenSummary } from './lockScreenSummary';

describe('lockScreenSummary', () => {
  it('asks in plain words about the file, naming the tool never, the text a patch finds or writes never', () => {
    const args = JSON.stringify({ path: 'notes.md', find: 'password=hunter2', replace: 'x' });
    const summary = lockScreenSummary({ tool: 'patch_file', args });
    expect(summary).toBe('Edit notes.md?');
    expect(
      lockScreenSummary({
        tool: 'write_file',
        args: JSON.stringify({ path: 'notes.md', content: 'hunter2' }),
      }),
    ).toBe('Write notes.md?');
  });

  it('names a command by its program only, never its arguments', () => {
    const args = JSON.stringify({ command: '/usr/bin/curl', args: ['-H', 'Authorization: Bearer sk-123'] });
    expect(lockScreenSummary({ tool: 'run_command', args })).toBe('Run `curl`?');
    // A whole command line in `command` (the model's mistake) still shows its program only.
    const line = JSON.stringify({ command: 'echo hunter2 | sudo -S cat /etc/shadow' });
    expect(lockScreenSummary({ tool: 'run_command', args: line })).toBe('Run `echo`?');
  });

  it('names only an MCP tool, never its arguments, even when they look like a program or a path', () => {
    const leaky = JSON.stringify({ command: 'echo hunter2-PASSWORD | sudo -S cat shadow' });
    const summary = lockScreenSummary({ tool: 'desktop-commander__execute_command', args: leaky });
    expect(summary).not.toContain('hunter2');
    expect(summary).toBe('Use desktop-commander__execute_command?');
    const withPath = JSON.stringify({ path: '/home/me/.ssh/id_ed25519-for-prod' });
    expect(lockScreenSummary({ tool: 'filesystem__read_file', args: withPath })).toBe(
      'Use filesystem__read_file?',
    );
  });

  it('says only the tool for anything else (arguments that are not JSON, a missing path)', () => {
    expect(lockScreenSummary({ tool: 'github: create_issue', args: '{"body":"secret plans"}' })).toBe(
      'Use github: create_issue?',
    );
    expect(lockScreenSummary({ tool: 'write_file', args: 'not json' })).toBe('Use write_file?');
    expect(lockScreenSummary({ tool: 'write_file', args: '{"path":42}' })).toBe('Use write_file?');
  });

  it('keeps a long or multi-line path to one line of at most 100 characters', () => {
    const path = `${'deep/'.repeat(40)}notes\nmd`;
    const summary = lockScreenSummary({ tool: 'write_file', args: JSON.stringify({ path }) });
    expect(summary).not.toContain('\n');
    expect([...summary].length).toBeLessThanOrEqual(120);
    expect(summary).toMatch(/^Write deep\/.*…\?$/);
  });
});
