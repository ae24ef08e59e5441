// @vitest-environment happy-dom
import { h } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentSnapshot, chromeSession, mountWith, unmount } from '../mocks/agentChromeTestKit';
import { matchingCommands, SlashCommands } from './SlashCommands';

const COMMANDS = [
  { name: 'review', description: 'Review' },
  { name: 'reset', description: 'Reset' },
  { name: 'test', description: 'Test' },
];

describe('matchingCommands', () => {
  it('matches "/" and a word being typed, by prefix, and nothing once the word is ended', () => {
    expect(matchingCommands('/', COMMANDS).map((c) => c.name)).toEqual(['review', 'reset', 'test']);
    expect(matchingCommands('/RE', COMMANDS).map((c) => c.name)).toEqual(['review', 'reset']);
    expect(matchingCommands('/review', COMMANDS)).toEqual([]);
    expect(matchingCommands('/review ', COMMANDS)).toEqual([]);
    expect(matchingCommands('hello /re', COMMANDS)).toEqual([]);
    expect(matchingCommands('', COMMANDS)).toEqual([]);
  });
});

describe('SlashCommands', () => {
  let root: HTMLElement | undefined;
  afterEach(() => {
    if (root) unmount(root);
    root = undefined;
  });

  it('offers the agent’s commands as buttons that put one in the composer', async () => {
    const onPick = vi.fn();
    root = await mountWith(chromeSession(agentSnapshot()).session, h(SlashCommands, { text: '/te', onPick }));
    const list = root.querySelector('ul');
    expect(list?.getAttribute('aria-label')).toBe('Agent commands');
    const buttons = [...root.querySelectorAll('button')];
    expect(buttons.map((b) => b.textContent)).toEqual(['/testRun the tests']);
    buttons[0]?.click();
    expect(onPick).toHaveBeenCalledWith('test');
  });

  it('moves between the commands with the arrows and goes back to the composer on Escape', async () => {
    const composer = document.createElement('textarea');
    composer.className = 'composer-input';
    document.body.append(composer);
    root = await mountWith(
      chromeSession(agentSnapshot()).session,
      h(SlashCommands, { text: '/', onPick: vi.fn() }),
    );
    const [review, test] = [...root.querySelectorAll('button')];
    review?.focus();
    const key = (k: string) =>
      document.activeElement?.dispatchEvent(
        new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }),
      );
    key('ArrowDown');
    expect(document.activeElement).toBe(test);
    key('ArrowDown');
    expect(document.activeElement).toBe(review);
    key('ArrowUp');
    expect(document.activeElement).toBe(test);
    key('Escape');
    expect(document.activeElement).toBe(composer);
    composer.remove();
  });
});
