import {
  ACTION_SCHEMAS,
  type ActionName,
  type ActionOf,
  actionSchema,
  contract,
  fastAccept,
  headersOf,
  MAX_MESSAGE_TEXT,
  parseAction,
} from '@webbridge/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const identity = { sessionRevision: 3, conversationId: 'c1', projectId: 'p1', instanceId: 'i1' };

/** One valid action of each name (the type makes the list complete). */
const VALID: { [N in ActionName]: ActionOf<N> } = {
  send: { action: 'send', text: 'hi', attachmentIds: ['a1'], actionId: 'act-0001', ...identity },
  stop: { action: 'stop', ...identity },
  continue: { action: 'continue', ...identity },
  workspace: { action: 'workspace', uri: 'file:///w', ...identity },
  model: { action: 'model', modelId: 'echo', ...identity },
  branch: { action: 'branch', messageId: 'm1', index: 0, ...identity },
  editMessage: { action: 'editMessage', messageId: 'm1', text: 'edited', ...identity },
  regenerate: { action: 'regenerate', ...identity },
  newConversation: { action: 'newConversation', projectId: 'p1', title: 't' },
  selectConversation: { action: 'selectConversation', conversationId: 'c1' },
  renameConversation: { action: 'renameConversation', conversationId: 'c1', title: 'new' },
  deleteConversation: { action: 'deleteConversation', conversationId: 'c1' },
  selectProject: { action: 'selectProject', projectId: 'p1' },
  approve: { action: 'approve', approvalId: 'a1', decision: 'allow' },
  updateSettings: {
    action: 'updateSettings',
    settings: { theme: 'dark', autoApprove: ['x'], allowCommands: true },
  },
  removeAttachment: { action: 'removeAttachment', attachmentId: 'a1' },
  refreshMedia: { action: 'refreshMedia', attachmentId: 'a1' },
  pushStatus: { action: 'pushStatus' },
  subscribePush: {
    action: 'subscribePush',
    subscription: {
      endpoint: 'https://push.example.com/s/1',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
    },
    choices: { approvals: true, replies: false },
  },
  unsubscribePush: { action: 'unsubscribePush' },
  reportPresence: { action: 'reportPresence', visible: true },
  agentMode: { action: 'agentMode', modeId: 'code', ...identity },
  agentOption: { action: 'agentOption', optionId: 'model', value: true, ...identity },
  agentSessions: { action: 'agentSessions', agentId: 'opencode' },
  openAgentSession: { action: 'openAgentSession', agentId: 'opencode', sessionId: 's1', projectId: 'p1' },
};
const NAMES = Object.keys(VALID) as ActionName[];

/** Values at and past the schema's edges, and of every wrong kind. */
const EDGE_VALUES: unknown[] = [
  '',
  'x',
  'x'.repeat(7),
  'x'.repeat(8),
  'x'.repeat(128),
  'x'.repeat(129),
  'x'.repeat(200),
  'x'.repeat(201),
  '😀'.repeat(100),
  '😀'.repeat(101),
  'x'.repeat(MAX_MESSAGE_TEXT),
  'x'.repeat(MAX_MESSAGE_TEXT + 1),
  0,
  -0,
  -1,
  1.5,
  2 ** 53 + 2,
  JSON.parse('1e400'),
  -Infinity,
  Number.NaN,
  true,
  false,
  null,
  undefined,
  [],
  ['a1'],
  Array.from({ length: 100 }, (_, i) => `a${i}`),
  Array.from({ length: 101 }, (_, i) => `a${i}`),
  [1],
  {},
  { theme: 'light' },
  { theme: 'neon' },
  { systemPrompt: 'x'.repeat(20_001) },
  'allow',
  'deny',
  'dark',
  ...NAMES,
];

/** A valid action with one change: a field replaced, removed or added. */
const mutatedAction = fc
  .record({
    name: fc.constantFrom(...NAMES),
    changes: fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('set' as const),
          key: fc.string(),
          value: fc.constantFrom(...EDGE_VALUES),
        }),
        fc.record({ kind: fc.constant('json' as const), key: fc.string(), value: fc.jsonValue() }),
        fc.record({ kind: fc.constant('delete' as const), key: fc.string(), value: fc.constant(undefined) }),
      ),
      { maxLength: 3 },
    ),
    known: fc.array(fc.nat(), { maxLength: 3 }),
  })
  .map(({ name, changes, known }) => {
    const action: Record<string, unknown> = { ...VALID[name] };
    const keys = [...Object.keys(ACTION_SCHEMAS[name].shape), 'action'];
    changes.forEach((change, i) => {
      // Mostly a key the schema knows, sometimes any string (an unknown key).
      const key = known[i] === undefined ? change.key : keys[known[i] % keys.length]!;
      if (change.kind === 'delete') delete action[key];
      else action[key] = change.value;
    });
    return action;
  });

/** What the fast test may never do: accept a value zod refuses, or one zod would change. */
function agreesWithZod(value: unknown): boolean {
  const accepted = fastAccept(actionSchema)!(value);
  if (!accepted) return true;
  const parsed = actionSchema.safeParse(value);
  if (!parsed.success) throw new Error(`accepted but zod refuses: ${JSON.stringify(value)?.slice(0, 300)}`);
  expect(parsed.data).toEqual(value);
  return true;
}

describe('fastAccept: the fast test of an action against zod (property)', () => {
  it('knows every action of the contract, and accepts each valid one', () => {
    const accepts = fastAccept(actionSchema);
    expect(accepts).toBeDefined();
    for (const name of NAMES) {
      expect(fastAccept(ACTION_SCHEMAS[name] as z.ZodTypeAny), name).toBeDefined();
      expect(accepts!(VALID[name]), name).toBe(true);
      expect(actionSchema.safeParse(VALID[name]).success, name).toBe(true);
    }
  });

  it('never accepts what zod refuses, nor a value zod would return changed', () => {
    let accepted = 0;
    fc.assert(
      fc.property(mutatedAction, (value) => {
        if (fastAccept(actionSchema)!(value)) accepted++;
        return agreesWithZod(value);
      }),
      { numRuns: 10_000 },
    );
    // The generator reaches both sides: a test that accepted nothing would prove nothing.
    expect(accepted).toBeGreaterThan(500);
    // About 3 s here; CPU-bound, so a loaded machine needs more than the default 20 s.
  }, 60_000);

  it('never accepts any other value zod refuses (JSON, and what JSON cannot make)', () => {
    fc.assert(fc.property(fc.jsonValue(), agreesWithZod), { numRuns: 5_000 });
    fc.assert(fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), agreesWithZod), {
      numRuns: 5_000,
    });
    // An own "__proto__" key, as JSON.parse makes it, is an unknown key.
    agreesWithZod(
      JSON.parse(`{"action":"stop","sessionRevision":1,"conversationId":"c","projectId":"p","__proto__":{}}`),
    );
    expect(
      fastAccept(actionSchema)!(JSON.parse('{"action":"selectProject","projectId":"p","__proto__":1}')),
    ).toBe(false);
  }, 60_000);

  it('gives parseAction zod’s issues for what it refuses', () => {
    const refused = parseAction({ ...VALID.model, sessionRevision: 1.5 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['sessionRevision']);
    expect(parseAction(VALID.model)).toEqual({ success: true, data: VALID.model });
  });

  it('follows zod on numbers no action field has yet: NaN refused, Infinity taken unless finite', () => {
    for (const schema of [z.number(), z.number().finite(), z.number().gt(0).lt(1)]) {
      for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 0, 0.5, 1]) {
        expect(fastAccept(schema)!(value), `${value}`).toBe(schema.safeParse(value).success);
      }
    }
  });

  it('agrees with zod on every header the contract declares (patterns included)', () => {
    const schemas = Object.values(contract).flatMap(
      (route) => Object.values(headersOf(route)) as z.ZodTypeAny[],
    );
    const fragment = fc.constantFrom(
      'Bearer',
      'bearer',
      ' ',
      '\t',
      'x',
      'code-1',
      ',',
      'application/json',
      ';',
      'charset=utf-8',
      '1',
      '0',
      '\n',
      'é',
    );
    const header = fc.oneof(
      fc.string(),
      fc.array(fragment, { maxLength: 6 }).map((parts) => parts.join('')),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom(...schemas), header, (schema, value) => {
        const fast = fastAccept(schema)!(value);
        if (fast) accepted++;
        expect(fast).toBe(schema.safeParse(value).success);
      }),
      { numRuns: 5_000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('tests a global pattern from its start every time, as zod does', () => {
    const schema = z.string().regex(/a/g);
    const accepts = fastAccept(schema)!;
    for (const value of ['a', 'a', 'ba', 'a'])
      expect(accepts(value), value).toBe(schema.safeParse(value).success);
  });

  it('leaves to zod what it does not know (a transform, a refinement, a copying object)', () => {
    expect(fastAccept(z.string().trim())).toBeUndefined();
    expect(fastAccept(z.string().email())).toBeUndefined();
    expect(fastAccept(z.string().startsWith('a'))).toBeUndefined();
    expect(fastAccept(z.number().multipleOf(2))).toBeUndefined();
    // A stripping object is known (stateFastAccept.property.test.ts); one that copies unknown
    // keys is not: zod drops `__proto__` from the copy.
    expect(fastAccept(z.object({ a: z.string() }).passthrough())).toBeUndefined();
    expect(fastAccept(z.object({ a: z.string() }).catchall(z.string()))).toBeUndefined();
    expect(fastAccept(z.object({ a: z.string().default('x') }).strict())).toBeUndefined();
    expect(fastAccept(z.coerce.number())).toBeUndefined();
    expect(
      fastAccept(
        z
          .object({ a: z.string() })
          .strict()
          .refine(() => false),
      ),
    ).toBeUndefined();
  });
});
