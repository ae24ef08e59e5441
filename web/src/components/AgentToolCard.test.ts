// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentToolCall } from '../state/agentMessageTypes';
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

  it('shows a failed call as failed and its output folded', () => {
    render(h(AgentToolCard, { call: { ...edit, status: 'failed', content: [] }, output: 'rejected' }), root);
    expect(root.querySelector('.agent-tool-status')?.textContent).toBe('Failed');
    expect(root.querySelector('details.agent-tool-output pre')?.textContent).toBe('rejected');
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
});
