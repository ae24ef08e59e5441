import type * as acp from '@agentclientprotocol/sdk';
import { ALL_PERMISSION_OPTIONS, type FakeStep, type FakeTurn } from './fakeAgentScript';

/**
 * Builders for a fake agent's steps, so a script reads like what the agent does.
 *
 * @example
 * const script = { turns: [turn(say('Hello there'), ...edit({ path, oldText: 'a', newText: 'b' }))] };
 */
export const turn = (...steps: FakeStep[]): FakeTurn => ({ steps });

/** Message chunks (a string is split into words). */
export const say = (text: string | string[], delayMs?: number): FakeStep => ({
  type: 'say',
  text,
  ...(delayMs === undefined ? {} : { delayMs }),
});

/** Thought chunks (a string is split into words). */
export const think = (text: string | string[]): FakeStep => ({ type: 'think', text });

/** Any session update as is. */
export const update = (value: acp.SessionUpdate): FakeStep => ({ type: 'update', update: value });

/** A plan whose entries are all medium priority. */
export const plan = (entries: ReadonlyArray<readonly [string, acp.PlanEntryStatus]>): FakeStep =>
  update({
    sessionUpdate: 'plan',
    entries: entries.map(([content, status]) => ({ content, status, priority: 'medium' })),
  });

/** Waits this long (cut short by a cancel). */
export const wait = (ms: number): FakeStep => ({ type: 'wait', ms });

/** Waits until the client cancels the turn. */
export const waitForCancel = (): FakeStep => ({ type: 'waitForCancel' });

/** Exits with this on stderr. */
export const crash = (stderr: string, code = 1): FakeStep => ({ type: 'crash', stderr, code });

/** Options of {@link edit}. */
export interface EditOptions {
  readonly path: string;
  readonly oldText?: string | null;
  readonly newText: string;
  /** @default 'edit-1' */
  readonly toolCallId?: string;
  /** @default ALL_PERMISSION_OPTIONS */
  readonly options?: readonly acp.PermissionOption[];
}

/**
 * An edit the way coding agents do it: a `tool_call` (kind edit, pending) with the diff and the
 * file as location, `session/request_permission` about it, then on allow `fs/write_text_file`
 * and `tool_call_update` completed, on reject `tool_call_update` failed.
 */
export function edit(options: EditOptions): FakeStep[] {
  const toolCallId = options.toolCallId ?? 'edit-1';
  const diff: acp.ToolCallContent = {
    type: 'diff',
    path: options.path,
    oldText: options.oldText ?? null,
    newText: options.newText,
  };
  const title = `Edit ${options.path}`;
  return [
    update({
      sessionUpdate: 'tool_call',
      toolCallId,
      title,
      kind: 'edit',
      status: 'pending',
      content: [diff],
      locations: [{ path: options.path }],
      rawInput: { filePath: options.path, newString: options.newText },
    }),
    {
      type: 'permission',
      toolCall: { toolCallId, title, kind: 'edit', status: 'pending', content: [diff] },
      options: options.options ?? ALL_PERMISSION_OPTIONS,
      onAllow: [{ type: 'writeFile', path: options.path, content: options.newText, toolCallId }],
      onReject: [
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: 'failed',
          content: [{ type: 'content', content: { type: 'text', text: 'The user rejected the edit.' } }],
        }),
      ],
    },
  ];
}
