import type { ActionResultOf, Snapshot } from '@webbridge/client-sdk';

/** An agent a conversation can be backed by, and its state (the snapshot's `agents.list`). */
export type Agent = NonNullable<Snapshot['agents']>['list'][number];

/** The current conversation's ACP session: modes, settings, commands, plan (`agents.session`). */
export type AgentSession = NonNullable<NonNullable<Snapshot['agents']>['session']>;

/** One entry of an agent's plan. */
export type PlanEntry = AgentSession['plan'][number];

/** A slash command an agent offers. */
export type AgentCommand = AgentSession['commands'][number];

/** A session an agent lists (`agentSessions`), e.g. one started at the desk. */
export type ListedSession = ActionResultOf<'agentSessions'>['sessions'][number];
