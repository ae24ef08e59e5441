// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentToolCall } from '../state/agentMessageTypes';
import { ProjectRootContext } from '../state/ProjectRootContext';
import { AgentToolCard } from './AgentToolCard';

const edit: AgentToolCall = {
  id: 'edit-1',
  title: 'Edit src/a.ts',
  kind: 'edit',
  status: 'in_progress',
  locations: [{ path: '/p/src/a.ts', line: 3 }, { path: '/p/README.md' }],
  content: [
    { type: 'diff', path: '/p/src/a.ts', oldText: 'a\n', newText: 'b\n' },
    { type: 'diff', path: '/p/b.ts', oldText: null, newText: 'new\n' },
  ],
};

describe('AgentToolCard', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  it('says its kind, title and status, and a file with a diff opens it', () => {
    render(h(AgentToolCard, { call: edit, output: '' }), root);
    const card = root.querySelector('section.agent-tool');
    expect(card?.getAttribute('aria-label')).toBe('Edit src/a.ts: Running');
    expect(card?.querySelector('svg')?.dataset.kind).toBe('edit');
    expect(card?.querySelector('.agent-tool-status')?.textContent).toBe('Running');
    // Two diffs: both closed until asked for; a file without a diff is plain text.
    const diffs = [...root.querySelectorAll<HTMLDetailsElement>('details.agent-tool-diff')];
    expect(diffs.map((d) => d.open)).toEqual([false, false]);
    expect(root.querySelector('code.agent-tool-location')?.textContent).toBe('/p/README.md');
    const link = root.querySelector<HTMLButtonElement>('button.agent-tool-location');
    expect(link?.getAttribute('aria-label')).toBe('Open the changes to /p/src/a.ts:3');
    link?.click();
    expect(diffs.map((d) => d.open)).toEqual([true, false]);
  });

  // Seen on the agent screenshots at 390 px: a title naming the file by its whole path on the
  // host ("Edit /tmp/…/workspace/src/parser.ts") took five lines of the card, while the paths
  // below it are shown from the project's folder.
  it('names files inside the project from its folder in the title, the whole title on hover', () => {
    const call = { ...edit, title: 'Edit /home/me/app/src/a.ts and /home/me/app/b.ts' };
    render(
      h(ProjectRootContext.Provider, { value: '/home/me/app' }, h(AgentToolCard, { call, output: '' })),
      root,
    );
    const title = root.querySelector('.agent-tool-title');
    expect(title?.textContent).toBe('Edit src/a.ts and b.ts');
    expect(title?.getAttribute('title')).toBe(call.title);
    expect(root.querySelector('section.agent-tool')?.getAttribute('aria-label')).toBe(
      'Edit src/a.ts and b.ts: Running',
    );
    // Outside the folder (or a folder whose name only begins the same), the path stays whole.
    render(null, root);
    const outside = { ...edit, title: 'Read /home/me/apple/x.ts and /etc/hosts' };
    render(
      h(
        ProjectRootContext.Provider,
        { value: '/home/me/app' },
        h(AgentToolCard, { call: outside, output: '' }),
      ),
      root,
    );
    expect(root.querySelector('.agent-tool-title')?.textContent).toBe(outside.title);
    expect(root.querySelector('.agent-tool-title')?.hasAttribute('title')).toBe(false);
  });

  it('shows a call its turn left unfinished as failed or stopped, not as still pending', () => {
    // The agent was stopped (a host restart) while the call waited: the message ended in error.
    render(h(AgentToolCard, { call: { ...edit, status: 'pending' }, output: '', ended: 'error' }), root);
    expect(root.querySelector('.agent-tool-status')?.textContent).toBe('Failed');
    expect(root.querySelector('section.agent-tool')?.getAttribute('aria-label')).toBe(
      'Edit src/a.ts: Failed',
    );
    render(
      h(AgentToolCard, { call: { ...edit, status: 'in_progress' }, output: '', ended: 'stopped' }),
      root,
    );
    expect(root.querySelector('.agent-tool-status')?.textContent).toBe('Stopped');
    // A call that finished keeps its own status.
    render(h(AgentToolCard, { call: { ...edit, status: 'completed' }, output: '', ended: 'error' }), root);
    expect(root.querySelector('.agent-tool-status')?.textContent).toBe('Done');
  });

  it('shows a failed call as failed and its output folded', () => {
    render(h(AgentToolCard, { call: { ...edit, status: 'failed', content: [] }, output: 'rejected' }), root);
    expect(root.querySelector('.agent-tool-status')?.textContent).toBe('Failed');
    expect(root.querySelector('details.agent-tool-output pre')?.textContent).toBe('rejected');
  });

  it('draws long terminal output in blocks, and output that arrives touches only the last one', () => {
    const call: AgentToolCall = {
      ...edit,
      kind: 'execute',
      locations: [],
      content: [{ type: 'terminal', terminalId: 't1' }],
    };
    const lines = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join('');
    render(h(AgentToolCard, { call, output: lines(0, 180) }), root);
    const pre = root.querySelector<HTMLPreElement>('pre.agent-terminal');
    const blocks = () => [...(pre?.querySelectorAll('.agent-terminal-chunk') ?? [])];
    // A browser lays out only the block that changed, not 2,000 lines for each line that comes.
    const before = blocks();
    expect(before.length).toBe(4);
    expect(pre?.textContent).toBe(lines(0, 180));
    render(h(AgentToolCard, { call, output: lines(0, 190) }), root);
    const after = blocks();
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after[0]?.firstChild).toBe(before[0]?.firstChild);
    expect(pre?.textContent).toBe(lines(0, 190));
    expect(root.querySelector('button.agent-terminal-earlier')).toBeNull();
  });

  it('keeps only the end of a long output in the page, earlier output a tap away', async () => {
    const call: AgentToolCall = {
      ...edit,
      kind: 'execute',
      locations: [],
      content: [{ type: 'terminal', terminalId: 't1' }],
    };
    const lines = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join('');
    // Written before the fix: all 2,000 lines were in the page, laid out again as lines came.
    render(h(AgentToolCard, { call, output: lines(0, 2010) }), root);
    const pre = root.querySelector<HTMLPreElement>('pre.agent-terminal');
    // The last 200 full lines' blocks and the 10 lines after them.
    expect(pre?.textContent).toBe(lines(1850, 2010));
    const earlier = root.querySelector<HTMLButtonElement>('button.agent-terminal-earlier');
    expect(earlier?.textContent).toBe('Show earlier output (1,850 lines)');
    earlier?.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pre?.textContent).toBe(lines(1650, 2010));
    // What was asked for stays as more output arrives.
    render(h(AgentToolCard, { call, output: lines(0, 2100) }), root);
    expect(pre?.textContent).toBe(lines(1650, 2100));
    expect(root.querySelector('button.agent-terminal-earlier')?.textContent).toBe(
      'Show earlier output (1,650 lines)',
    );
  });

  it('keeps a terminal at its end as output arrives, unless the person scrolled up', () => {
    const call: AgentToolCall = {
      ...edit,
      kind: 'execute',
      locations: [],
      content: [{ type: 'terminal', terminalId: 't1' }],
    };
    render(h(AgentToolCard, { call, output: '' }), root);
    const pre = root.querySelector<HTMLPreElement>('pre.agent-terminal');
    if (!pre) throw new Error('no terminal');
    expect(pre.textContent).toBe('No output yet');
    // happy-dom has no layout: give the block a size to scroll in.
    Object.defineProperty(pre, 'clientHeight', { value: 100, configurable: true });
    Object.defineProperty(pre, 'scrollHeight', { value: 1000, configurable: true });
    render(h(AgentToolCard, { call, output: '1\n2\n3' }), root);
    expect(pre.scrollTop).toBe(1000);
    pre.scrollTop = 10;
    pre.dispatchEvent(new Event('scroll'));
    render(h(AgentToolCard, { call, output: '1\n2\n3\n4' }), root);
    expect(pre.scrollTop).toBe(10);
  });

  it('shows a terminal as a terminal would: no colour codes, a redrawn line as it was left', () => {
    const call: AgentToolCall = {
      ...edit,
      kind: 'execute',
      locations: [],
      content: [{ type: 'terminal', terminalId: 't1' }],
    };
    // What `npm test` with colours and a download's progress line put on a terminal.
    const output =
      '\u001b[32m✓\u001b[39m 12 tests \u001b[1mpassed\u001b[22m\r\n' +
      'fetching  10%\rfetching  55%\rfetching 100%\n' +
      '\u001b]8;;https://example.test/log\u0007the log\u001b]8;;\u0007 saved\n';
    render(h(AgentToolCard, { call, output }), root);
    expect(root.querySelector('pre.agent-terminal')?.textContent).toBe(
      '✓ 12 tests passed\nfetching 100%\nthe log saved\n',
    );
  });
});
