// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../state/types';
import { ToolsList } from './ToolsList';

const tools: Snapshot['tools']['list'] = [
  { name: 'read_file', description: 'Read a file.', needsApproval: false, enabled: true },
  { name: 'files__write_file', description: 'Write', needsApproval: true, enabled: true, server: 'files' },
];

describe('ToolsList', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  it('shows each MCP server with its state, tool count and last error', () => {
    render(
      h(ToolsList, {
        tools,
        servers: [
          { name: 'files', transport: 'stdio', state: 'ready', toolCount: 1, approval: 'allow' },
          {
            name: 'github',
            transport: 'stdio',
            state: 'failed',
            toolCount: 0,
            approval: 'ask',
            lastError: 'It could not start: spawn github-mcp ENOENT',
          },
        ],
      }),
      root,
    );
    const files = root.querySelector('[data-mcp-server="files"]');
    expect(files?.textContent).toContain('MCP · ready · 1 tool · trusted');
    const github = root.querySelector('[data-mcp-server="github"]');
    expect(github?.getAttribute('data-state')).toBe('failed');
    expect(github?.classList.contains('disabled')).toBe(true);
    expect(github?.textContent).toContain('It could not start: spawn github-mcp ENOENT');
    // Visible while the panel is folded.
    expect(root.querySelector('summary')?.textContent).toContain('1 MCP server not ready');
    expect(root.querySelector('[data-tool="files__write_file"]')?.textContent).toContain('asks first');
  });

  it('shows no server list for a host without MCP servers', () => {
    render(h(ToolsList, { tools }), root);
    expect(root.querySelector('[aria-label="MCP servers"]')).toBeNull();
    expect(root.querySelector('summary')?.textContent).toBe('Tools (2)');
  });
});
