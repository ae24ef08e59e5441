import { describe, expect, it } from 'vitest';
import { lockScreenSummary } from './lockScreenSummary';

describe('lockScreenSummary', () => {
  it('names the tool and its file, never the text a patch finds or writes', () => {
    const args = JSON.stringify({ path: 'notes.md', find: 'password=hunter2', replace: 'x' });
    const summary = lockScreenSummary({ tool: 'patch_file', args });
    expect(summary).toBe('patch_file notes.md');
    expect(summary).not.toContain('hunter2');
  });

  it('names a command by its program only, never its arguments', () => {
    const args = JSON.stringify({ command: '/usr/bin/curl', args: ['-H', 'Authorization: Bearer sk-123'] });
    expect(lockScreenSummary({ tool: 'run_command', args })).toBe('run_command curl');
  });

  it('says only the tool for anything else (an MCP tool, arguments that are not JSON)', () => {
    expect(lockScreenSummary({ tool: 'github: create_issue', args: '{"body":"secret plans"}' })).toBe(
      'github: create_issue',
    );
    expect(lockScreenSummary({ tool: 'write_file', args: 'not json' })).toBe('write_file');
  });
});
