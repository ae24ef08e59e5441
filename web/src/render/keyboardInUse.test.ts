// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { noteKeyPress } from './keyboardInUse';

const press = (key: string, target: EventTarget, init: KeyboardEventInit = {}) => {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, ...init });
  target.addEventListener('keydown', noteKeyPress as EventListener, { once: true });
  target.dispatchEvent(event);
};

describe('noteKeyPress', () => {
  afterEach(() => {
    delete document.documentElement.dataset.keyboard;
  });

  it('leaves the page unmarked for typing into a field (a screen keyboard does that too)', () => {
    const field = document.createElement('textarea');
    document.body.append(field);
    press('a', field);
    press('Unidentified', document.body);
    expect(document.documentElement.dataset.keyboard).toBeUndefined();
    field.remove();
  });

  it('marks the page for a key outside a field, Tab in a field, or a key with a modifier', () => {
    press('?', document.body);
    expect(document.documentElement.dataset.keyboard).toBe('');
    delete document.documentElement.dataset.keyboard;
    const field = document.createElement('input');
    document.body.append(field);
    press('Tab', field);
    expect(document.documentElement.dataset.keyboard).toBe('');
    delete document.documentElement.dataset.keyboard;
    press('k', field, { ctrlKey: true });
    expect(document.documentElement.dataset.keyboard).toBe('');
    field.remove();
  });
});
