// @vitest-environment happy-dom
import { h } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { agentSnapshot, chromeSession, mountWith, unmount } from '../mocks/agentChromeTestKit';
import type { Approval } from '../state/types';
import { ApprovalCard } from './ApprovalCard';

/** An ACP agent's permission request (its title given as both tool and summary). */
function agentApproval(title: string): Approval {
  return {
    id: 'a-1',
    tool: title,
    summary: title,
    args: '{}',
    conversationId: 'c-welcome',
    messageId: 'm-1',
    createdAt: 0,
    options: [{ optionId: 'once', name: 'Allow once', kind: 'allow_once' }],
  };
}

describe('ApprovalCard', () => {
  let root: HTMLElement | undefined;
  afterEach(() => {
    if (root) unmount(root);
    root = undefined;
  });

  // Seen with opencode at 390 px: its request named the file by the host's whole path, two
  // lines at the top of the card, while the diff below names it from the project's folder.
  it("names files inside the conversation's project from its folder in its heading, the whole title on hover", async () => {
    const { session } = chromeSession(agentSnapshot());
    const title = '/home/me/work/src/parser.ts';
    root = await mountWith(session, h(ApprovalCard, { approval: agentApproval(title) }));
    const heading = root.querySelector('.approval-summary strong');
    expect(heading?.textContent).toBe('src/parser.ts');
    expect(heading?.getAttribute('title')).toBe(title);
    expect(root.querySelector('section.approval')?.getAttribute('aria-label')).toBe(
      'Approval for src/parser.ts',
    );
    unmount(root);
    // Outside the project's folder the path stays whole.
    root = await mountWith(session, h(ApprovalCard, { approval: agentApproval('/etc/hosts') }));
    expect(root.querySelector('.approval-summary strong')?.textContent).toBe('/etc/hosts');
  });
});
