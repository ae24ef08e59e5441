// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadMarkdown } from '../markdown/loadMarkdown';
import { StopReasonLine } from './StopReasonLine';
import { ThoughtView } from './ThoughtView';

describe('ThoughtView and StopReasonLine', () => {
  // The markdown renderer is a lazy module a message asks for: loaded before the tests, not
  // while the environment is torn down after them (an unhandled rejection that failed a run).
  beforeAll(() => loadMarkdown());
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  it('keeps thinking closed to one line, its text drawn only once opened', async () => {
    render(h(ThoughtView, { text: 'Maybe the bound is off by one.', streaming: true }), root);
    const details = root.querySelector('details.thought') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('Thinking…');
    expect(root.querySelector('.thought-text')).toBeNull();
    render(h(ThoughtView, { text: 'Maybe the bound is off by one.', streaming: false }), root);
    expect(details.querySelector('summary')?.textContent).toBe('Thought');
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
    await new Promise((r) => setTimeout(r, 20));
    expect(root.querySelector('.thought-text')).not.toBeNull();
  });

  it('says why a turn stopped unless it ended normally', () => {
    render(h(StopReasonLine, { reason: 'end_turn' }), root);
    expect(root.textContent).toBe('');
    render(h(StopReasonLine, { reason: 'max_tokens' }), root);
    expect(root.querySelector('.stop-reason')?.textContent).toBe(
      'Stopped: the reply reached the model’s length limit.',
    );
    render(h(StopReasonLine, { reason: 'refusal' }), root);
    expect(root.textContent).toBe('Stopped: the agent declined to go on.');
  });
});
