// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { RenderBoundary } from './RenderBoundary';

let root: HTMLElement;

afterEach(() => {
  render(null, root);
  root.remove();
});

function Throws(): never {
  throw new RangeError('Maximum call stack size exceeded');
}

describe('RenderBoundary', () => {
  it('keeps a rendering error inside the part that threw: the fallback shows, the rest stays', async () => {
    root = document.createElement('div');
    document.body.append(root);
    render(
      h('ol', null, [
        h('li', { key: 'a', id: 'a' }, 'before'),
        h(
          'li',
          { key: 'b', id: 'b' },
          h(RenderBoundary, { fallback: h('p', { id: 'plain' }, 'as written') }, h(Throws, null)),
        ),
        h('li', { key: 'c', id: 'c' }, 'after'),
      ]),
      root,
    );
    // The fallback is drawn by the re-render the caught error schedules.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(root.querySelector('#a')?.textContent).toBe('before');
    expect(root.querySelector('#c')?.textContent).toBe('after');
    expect(root.querySelector('#plain')?.textContent).toBe('as written');
  });

  it('renders its children when nothing throws', () => {
    root = document.createElement('div');
    document.body.append(root);
    render(h(RenderBoundary, { fallback: 'x' }, h('span', { id: 'ok' }, 'fine')), root);
    expect(root.querySelector('#ok')?.textContent).toBe('fine');
  });
});
