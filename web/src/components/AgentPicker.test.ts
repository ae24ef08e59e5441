// @vitest-environment happy-dom
import { h } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { agentSnapshot, chromeSession, mountWith, unmount } from '../mocks/agentChromeTestKit';
import { mockScenario } from '../mocks/mockScenario';
import { AgentPicker, pickerLabel } from './AgentPicker';

describe('pickerLabel', () => {
  it('names the current mode, else the first setting’s choice, else nothing', () => {
    const session = agentSnapshot().agents?.session;
    if (!session) throw new Error('no session');
    expect(pickerLabel(session)).toBe('Ask');
    const { modes: _modes, ...withoutModes } = session;
    expect(pickerLabel(withoutModes)).toBe('Small');
    expect(pickerLabel({ configOptions: [] })).toBeNull();
  });

  // opencode gives no ACP modes but a setting of category "mode" (build / plan) after its
  // model: the pill named the model ("Local script…"), not what a person switches on a phone.
  it('names a setting of category mode before the first setting', () => {
    const model = {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select' as const,
      currentValue: 'local/fake',
      options: [{ value: 'local/fake', name: 'Local scripted model/Fake' }],
    };
    const mode = {
      id: 'mode',
      name: 'Session Mode',
      category: 'mode',
      type: 'select' as const,
      currentValue: 'build',
      options: [
        { value: 'build', name: 'build' },
        { value: 'plan', name: 'plan' },
      ],
    };
    expect(pickerLabel({ configOptions: [model, mode] })).toBe('build');
    expect(pickerLabel({ configOptions: [model] })).toBe('Local scripted model/Fake');
  });
});

describe('AgentPicker', () => {
  let root: HTMLElement | undefined;
  afterEach(() => {
    if (root) unmount(root);
    root = undefined;
  });

  it('is not there for the built-in agent', async () => {
    const mounted = await mountWith(chromeSession(mockScenario()).session, h(AgentPicker, {}));
    root = mounted;
    expect(mounted.innerHTML).toBe('');
  });

  it('opens the modes and settings and switches them', async () => {
    const kit = chromeSession(agentSnapshot());
    const mounted = await mountWith(kit.session, h(AgentPicker, {}));
    root = mounted;
    const button = mounted.querySelector('button');
    expect(button?.getAttribute('aria-label')).toBe('Agent mode and settings: Ask');
    await act(() => button?.click());
    expect(button?.getAttribute('aria-expanded')).toBe('true');
    const selects = [...mounted.querySelectorAll('select')];
    expect(selects.map((s) => s.value)).toEqual(['ask', 'small']);
    await act(() => {
      const mode = selects[0];
      if (!mode) return;
      mode.value = 'plan';
      mode.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(kit.sensitive).toHaveBeenCalledOnce();
  });
});
