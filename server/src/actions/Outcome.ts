import type { ActionResponse } from '@webbridge/contract';

/**
 * How an action ended: its response, or its refusal (what it threw, or the 409 it returned).
 * The dispatcher settles every action as one, so an expected refusal reaches the answer as a
 * value, not as a rejection through every async frame on the way.
 */
export type Outcome = { ok: true; value: ActionResponse } | { ok: false; error: unknown };
