// @vitest-environment happy-dom
import { h } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chromeSession, mountWith, unmount } from '../mocks/agentChromeTestKit';
import { mockScenario } from '../mocks/mockScenario';
import type { Agent } from '../state/agentChromeTypes';
import { NewConversationSheet } from './NewConversationSheet';

const AGENTS: Agent[] = [
  { name: 'builtin', builtin: true, state: 'ready' },
  { name: 'opencode', title: 'OpenCode', version: '1.2.3', builtin: false, state: 'ready' },
  { name: 'claude', builtin: false, state: 'needs_sign_in', signIn: 'claude /login' },
  { name: 'gemini', builtin: false, state: 'failed', reason: 'gemini was not found on PATH' },
];

describe('NewConversationSheet', () => {
  let root: HTMLElement | undefined;
  afterEach(() => {
    if (root) unmount(root);
    root = undefined;
  });

  const open = async (onDone = vi.fn(), onClose = vi.fn()) => {
    const snapshot = mockScenario();
    const kit = chromeSession(snapshot);
    root = await mountWith(
      kit.session,
      h(NewConversationSheet, {
        agents: AGENTS,
        projects: snapshot.projects.list,
        projectId: snapshot.projectId,
        onDone,
        onClose,
      }),
    );
    const dialog = document.querySelector('[role="dialog"]') as HTMLElement | null;
    if (!dialog) throw new Error('no dialog');
    return { ...kit, dialog, onDone, onClose, snapshot };
  };

  it('shows each agent with its state: ready, the sign-in command to run on the host, why it failed', async () => {
    const { dialog } = await open();
    const choices = [...dialog.querySelectorAll('.agent-choice')].map((c) => c.textContent);
    expect(choices).toEqual([
      'Built-in assistantReady',
      'OpenCode 1.2.3Ready',
      'claudeNeeds sign-in on the hostRun this on the host, then try again: claude /login',
      'geminiFailedgemini was not found on PATH',
    ]);
    // The built-in agent is chosen at first: "Start" at once is the one-tap path.
    expect((dialog.querySelector('input[value="builtin"]') as HTMLInputElement | null)?.checked).toBe(true);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
  });

  it('starts a conversation with the chosen agent in the chosen project', async () => {
    const { dialog, act: posted, onDone, snapshot } = await open();
    const other = snapshot.projects.list.at(-1)?.id ?? '';
    await act(() => {
      (dialog.querySelector('input[value="opencode"]') as HTMLInputElement | null)?.click();
      const select = dialog.querySelector('select');
      if (!select) throw new Error('no project select');
      select.value = other;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await act(async () => {
      dialog.querySelector('form')?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(posted).toHaveBeenCalledWith({ action: 'newConversation', projectId: other, agentId: 'opencode' });
    expect(onDone).toHaveBeenCalledOnce();
  });

  it('offers the desk sessions of an ACP agent only, and closes on Escape', async () => {
    const { dialog, onClose } = await open();
    expect(dialog.querySelector('.desk-sessions')).toBeNull();
    await act(() => (dialog.querySelector('input[value="opencode"]') as HTMLInputElement | null)?.click());
    expect(dialog.querySelector('.desk-sessions h3')?.textContent).toBe('Sessions from the desk');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('keeps the focus inside: Tab from its last control goes to its first', async () => {
    const { dialog } = await open();
    const radio = dialog.querySelector('input:checked');
    expect(document.activeElement).toBe(radio);
    const start = [...dialog.querySelectorAll('button')].at(-1);
    start?.focus();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true }));
    expect(document.activeElement).toBe(radio);
  });
});
