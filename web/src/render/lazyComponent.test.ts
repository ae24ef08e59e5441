// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lazyComponent } from './lazyComponent';

function Greeting({ name }: { readonly name: string }) {
  return h('p', null, `Hello ${name}`);
}

describe('lazyComponent', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    act(() => render(null, root));
    root.remove();
  });

  it('renders nothing until its chunk has loaded, then the component with its props; loads once', async () => {
    let resolve: (component: typeof Greeting) => void = () => {};
    const load = vi.fn(() => new Promise<typeof Greeting>((r) => (resolve = r)));
    const Lazy = lazyComponent(load);
    act(() => render(h('div', null, h(Lazy, { name: 'Ada' }), h(Lazy, { name: 'Bo' })), root));
    expect(root.textContent).toBe('');
    await act(async () => {
      resolve(Greeting);
      await Lazy.preload();
    });
    expect(root.textContent).toBe('Hello AdaHello Bo');
    expect(load).toHaveBeenCalledTimes(1);
    // Once loaded, a new instance renders at once.
    act(() => render(h(Lazy, { name: 'Cy' }), root));
    expect(root.textContent).toBe('Hello Cy');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('fetches its chunk ahead when asked to, without rendering', async () => {
    const load = vi.fn(async () => Greeting);
    const Lazy = lazyComponent(load);
    expect(await Lazy.preload()).toBe(Greeting);
    expect(await Lazy.preload()).toBe(Greeting);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
