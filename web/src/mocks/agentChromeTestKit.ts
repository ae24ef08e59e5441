import { createStore, type Store, type WritableStore } from '@webbridge/client-sdk';
import { h, render, type VNode } from 'preact';
import { act } from 'preact/test-utils';
import { type Mock, vi } from 'vitest';
import type { AgentSession } from '../state/agentChromeTypes';
import type { Session } from '../state/createSession';
import { SessionContext } from '../state/SessionContext';
import type { Snapshot } from '../state/types';
import { mockScenario } from './mockScenario';

/** What {@link chromeSession} gives a test. */
export interface ChromeSession {
  readonly session: Session;
  readonly act: Mock<(...args: unknown[]) => Promise<boolean>>;
  readonly sensitive: Mock<(...args: unknown[]) => Promise<boolean>>;
  readonly action: Mock<(...args: unknown[]) => Promise<unknown>>;
  readonly say: Mock<(...args: unknown[]) => void>;
  readonly store: Store;
}

/** A session whose actions are recorded, its store live with `snapshot`. Tests only. */
export function chromeSession(snapshot: Snapshot): ChromeSession {
  const act_ = vi.fn(async (..._args: unknown[]) => true);
  const sensitive = vi.fn(async (..._args: unknown[]) => true);
  const action = vi.fn(async (..._args: unknown[]): Promise<unknown> => ({}));
  const say = vi.fn((..._args: unknown[]) => {});
  const store = createStore();
  store.setStatus('live');
  (store as WritableStore).replaceSnapshot(snapshot);
  const session = { act: act_, sensitive, say, store, client: { action } } as unknown as Session;
  return { session, act: act_, sensitive, action, say, store };
}

/** The mock scenario with an ACP agent's session (modes, a setting, commands, a plan). */
export function agentSnapshot(overrides: Partial<AgentSession> = {}, running = false): Snapshot {
  const snapshot = mockScenario();
  return {
    ...snapshot,
    conversations: {
      ...snapshot.conversations,
      run: running ? { ...snapshot.conversations.run, state: 'streaming' } : snapshot.conversations.run,
    },
    agents: {
      list: [
        { name: 'builtin', builtin: true, state: 'ready' },
        { name: 'fake', title: 'Fake Agent', version: '1.0.0', builtin: false, state: 'ready' },
      ],
      session: {
        agentId: 'fake',
        canContinue: true,
        modes: {
          current: 'ask',
          list: [
            { id: 'ask', name: 'Ask' },
            { id: 'plan', name: 'Plan' },
          ],
        },
        configOptions: [
          {
            id: 'model',
            name: 'Model',
            type: 'select',
            currentValue: 'small',
            options: [
              { value: 'small', name: 'Small' },
              { value: 'large', name: 'Large' },
            ],
          },
        ],
        commands: [
          { name: 'review', description: 'Review the changes' },
          { name: 'test', description: 'Run the tests' },
        ],
        plan: [],
        ...overrides,
      },
    },
  } as Snapshot;
}

/** Renders `node` inside the session into a fresh element of the body, then a frame. */
// biome-ignore lint/suspicious/noExplicitAny: any component's element, props checked where it is made
export async function mountWith(session: Session, node: VNode<any>): Promise<HTMLElement> {
  const root = document.createElement('div');
  document.body.append(root);
  await act(() => {
    render(h(SessionContext.Provider, { value: session }, node), root);
  });
  await act(async () => await new Promise((r) => setTimeout(r, 0)));
  return root;
}

/** Unmounts what {@link mountWith} rendered. */
export function unmount(root: HTMLElement): void {
  render(null, root);
  root.remove();
}
