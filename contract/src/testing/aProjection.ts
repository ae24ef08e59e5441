import type { Projection } from '../snapshot';
import { aSettings } from './aSettings';

/**
 * What a test may change of a state: any group, replaced whole, except `conversations`, whose
 * fields are merged (a test mostly sets its messages or its run alone).
 */
export type StateOverrides<S extends { conversations: object }> = Partial<Omit<S, 'conversations'>> & {
  readonly conversations?: Partial<S['conversations']>;
};

/**
 * A host's projection for a test: instance `i`, conversation `c` in project `p`, at revision 0,
 * with no conversation listed, no message, nothing running, no project, model `echo` with none
 * listed, no tool, no approval and {@link aSettings}; `overrides` on top. Typed by the contract,
 * so a new required group is added here once, not in every test.
 *
 * @example aProjection({ conversations: { messages } })
 */
export function aProjection(overrides: StateOverrides<Projection> = {}): Projection {
  const { conversations, ...rest } = overrides;
  return {
    instanceId: 'i',
    sessionRevision: 0,
    conversationId: 'c',
    projectId: 'p',
    conversations: {
      list: [],
      messages: [],
      pending: [],
      run: { state: 'idle', messageId: null },
      ...conversations,
    },
    projects: { list: [], roots: [] },
    models: { current: 'echo', list: [] },
    tools: { list: [] },
    approvals: [],
    settings: aSettings(),
    // Without `conversations` (taken out above): the groups keep the contract's order.
    ...rest,
  };
}
