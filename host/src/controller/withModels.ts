import type { Projection } from '@webbridge/contract';

/** Every key of the projection but the optional `agents`, which is copied only when present. */
type CopiedKeys = Exclude<keyof Projection, 'agents'>;

/**
 * `projection` with other `models`, every other group the same object (structural sharing). Built
 * key by key: a spread of the projection's twelve keys cost about three times as much, and a
 * model switch is the action a person taps most (docs/PERFORMANCE.md, "the applied action's own
 * costs"). `satisfies` makes a key added to the contract's projection fail to compile here
 * until it is copied too, instead of being dropped silently.
 */
export function withModels(projection: Projection, models: Projection['models']): Projection {
  const next: Projection = {
    instanceId: projection.instanceId,
    sessionRevision: projection.sessionRevision,
    conversationId: projection.conversationId,
    projectId: projection.projectId,
    conversations: projection.conversations,
    projects: projection.projects,
    models,
    tools: projection.tools,
    approvals: projection.approvals,
    settings: projection.settings,
  } satisfies Record<CopiedKeys, unknown>;
  // Absent stays absent: a key present as `undefined` would differ in a diff of the two.
  if (projection.agents !== undefined) next.agents = projection.agents;
  return next;
}
