import { actionSchema, contract } from '@webbridge/contract';
import fc from 'fast-check';
import { zodArbitrary } from './zodArbitrary';
import { zodNearValid } from './zodNearValid';

/**
 * A request plan: what to send, with references into the host's state left abstract (an index
 * into "the conversations the snapshot lists"), so one generated plan is reproducible from its
 * seed and still hits real ids when it runs. `resolvePlan` turns it into bytes.
 */
export type Plan =
  | { readonly route: 'locale'; readonly method: string; readonly query: string; readonly framing: Framing }
  | { readonly route: 'state'; readonly method: string; readonly auth: Auth; readonly framing: Framing }
  | {
      readonly route: 'action';
      readonly auth: Auth;
      readonly contentType: string | null;
      readonly body: ActionBody;
      readonly framing: Framing;
    }
  | {
      readonly route: 'events';
      readonly auth: Auth;
      readonly lastEventId: 'none' | 'current' | 'old' | string;
      readonly query: string;
      readonly framing: Framing;
    }
  | {
      readonly route: 'upload';
      readonly auth: Auth;
      readonly query: Readonly<Record<string, unknown>>;
      readonly conversation: 'asGenerated' | 'current' | number;
      readonly repeat: string | null;
      readonly contentType: string | null;
      readonly size: UploadSize;
      readonly framing: Framing;
    }
  | { readonly route: 'media'; readonly method: string; readonly id: MediaId; readonly framing: Framing }
  | {
      readonly route: 'misc';
      readonly method: string;
      readonly target: string;
      readonly auth: Auth;
      readonly framing: Framing;
    }
  | { readonly route: 'raw'; readonly bytes: readonly string[]; readonly how: string };

/** How a request authenticates. `good` carries the access code. */
export type Auth = 'good' | 'none' | 'wrong' | 'empty' | 'basic' | 'lowerScheme' | 'twice' | 'padded';

/** What a request's head looks like besides its route's own headers. */
export interface Framing {
  readonly host: 'good' | 'localhost' | 'foreign' | 'twice';
  /** Extra header lines (junk, duplicates of the route's own, case games). */
  readonly extra: ReadonlyArray<readonly [string, string]>;
}

/** Which identity a session-sensitive action carries. */
export type Identity = 'current' | 'currentNoInstance' | 'staleRevision' | 'otherConversation' | 'generated';

/** An action body: valid or near-valid (both from the schema, then resolved) or broken JSON. */
export type ActionBody =
  | {
      readonly kind: 'valid' | 'near';
      readonly value: unknown;
      readonly how: string;
      readonly identity: Identity;
      /** Field name → index into the snapshot's candidates for it; absent: keep the generated value. */
      readonly picks: Readonly<Record<string, number>>;
      readonly actionId: 'asGenerated' | 'fresh' | { readonly reuse: number };
    }
  | { readonly kind: 'text'; readonly text: string; readonly how: string };

/** Upload body sizes, relative to the host's limit where it matters. */
export type UploadSize = number | 'limit' | 'overLimit' | 'empty' | 'noLength';

/** A media id: one the state handed out (by index), a made-up one, or a broken query. */
export type MediaId = number | { readonly literal: string } | 'repeated' | 'missing';

const AUTH: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<Auth>('good') },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Auth>('none', 'wrong', 'empty', 'basic', 'lowerScheme', 'twice', 'padded'),
  },
);

const JUNK_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['X-Fuzz', 'ä\u00ff'],
  ['Origin', 'http://evil.example'],
  ['Content-Encoding', 'gzip'],
  ['Accept', '*/*'],
  ['Cookie', 'a=b'],
  ['Last-Event-ID', '1'],
  ['Content-Type', 'text/plain'],
  ['Expect', '100-continue'],
  ['Range', 'bytes=0-1'],
  ['X-Forwarded-For', '10.0.0.1'],
  ['Transfer-Encoding', 'chunked'],
];

const FRAMING: fc.Arbitrary<Framing> = fc.record({
  host: fc.oneof(
    { weight: 30, arbitrary: fc.constant<Framing['host']>('good') },
    { weight: 1, arbitrary: fc.constantFrom<Framing['host']>('localhost', 'foreign', 'twice') },
  ),
  extra: fc.oneof(
    { weight: 12, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.subarray([...JUNK_HEADERS], { minLength: 1, maxLength: 2 }) },
  ),
});

const METHOD_GET = fc.oneof(
  { weight: 12, arbitrary: fc.constant('GET') },
  { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST', 'DELETE', 'OPTIONS', 'PUT') },
);

/** Names of action fields that refer to things in the state, and how to pick them. */
const PICKED_FIELDS = [
  'conversationId',
  'projectId',
  'messageId',
  'approvalId',
  'attachmentId',
  'attachmentIds',
  'modelId',
  'uri',
  'index',
  'text',
] as const;

/** Mostly every reference taken from the state (so actions apply), sometimes only some. */
const PICKS = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(Object.fromEntries(PICKED_FIELDS.map((field) => [field, fc.nat(1000)]))),
  },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.constantFrom(...PICKED_FIELDS), fc.nat(1000), {
      maxKeys: PICKED_FIELDS.length,
    }),
  },
);

const IDENTITY: fc.Arbitrary<Identity> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<Identity>('current', 'currentNoInstance') },
  { weight: 3, arbitrary: fc.constantFrom<Identity>('staleRevision', 'otherConversation', 'generated') },
);

const ACTION_ID = fc.oneof(
  { weight: 4, arbitrary: fc.constant<'asGenerated'>('asGenerated') },
  { weight: 4, arbitrary: fc.constant<'fresh'>('fresh') },
  { weight: 1, arbitrary: fc.record({ reuse: fc.nat(50) }) },
);

const nearAction = zodNearValid(actionSchema);
if (!nearAction) throw new Error('the action schema has nothing to break');

const BROKEN_JSON = fc.oneof(
  fc.constantFrom(
    '',
    'null',
    '[]',
    '"send"',
    '{',
    '{"action":',
    '{"action":"send",}',
    "{'action':'send'}",
    '{"action":"send","text":"\\ud800"}',
    '\ufeff{"action":"stop"}',
    '{"action":"send"}{"action":"send"}',
    '{"__proto__":{"action":"send"}}',
    '{"action":"newConversation","action":"stop"}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    '1e999999',
  ),
  fc.string({ maxLength: 40, unit: 'binary' }),
  zodArbitrary(actionSchema).map((a) => JSON.stringify(a).slice(0, -1)),
);

const ACTION_BODY: fc.Arbitrary<ActionBody> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant<'valid'>('valid'),
      value: zodArbitrary(actionSchema),
      how: fc.constant('valid'),
      identity: IDENTITY,
      picks: PICKS,
      actionId: ACTION_ID,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant<'near'>('near'),
      value: nearAction.map((m) => m.value),
      how: nearAction.map((m) => m.how),
      identity: IDENTITY,
      picks: PICKS,
      actionId: fc.constant<'asGenerated'>('asGenerated'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant<'text'>('text'),
      text: BROKEN_JSON,
      how: fc.constant('broken JSON'),
    }),
  },
);

const CONTENT_TYPE = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      null,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/json, text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      '',
    ),
  },
);

const uploadQuery = contract.upload.query;
const nearUploadQuery = zodNearValid(uploadQuery);
if (!nearUploadQuery) throw new Error('the upload query schema has nothing to break');

const UPLOAD: fc.Arbitrary<Plan> = fc.record({
  route: fc.constant<'upload'>('upload'),
  auth: AUTH,
  query: fc.oneof(
    { weight: 5, arbitrary: zodArbitrary(uploadQuery) as fc.Arbitrary<Record<string, unknown>> },
    { weight: 1, arbitrary: nearUploadQuery.map((m) => m.value as Record<string, unknown>) },
  ),
  conversation: fc.oneof(
    fc.constant<'asGenerated'>('asGenerated'),
    fc.constant<'current'>('current'),
    fc.nat(100),
  ),
  repeat: fc.oneof(
    { weight: 15, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('name', 'conversationId') },
  ),
  contentType: fc.constantFrom(
    null,
    'image/png',
    'text/plain',
    'application/octet-stream',
    'text/html',
    'x/y; a=b',
    'IMAGE/PNG',
  ),
  size: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 1, max: 2048 }) },
    { weight: 1, arbitrary: fc.constantFrom<UploadSize>('limit', 'overLimit', 'empty', 'noLength') },
  ),
  framing: FRAMING,
});

/** Pieces of raw requests no HTTP client library would produce. */
const RAW: fc.Arbitrary<Plan> = fc.oneof(
  fc
    .uint8Array({ minLength: 1, maxLength: 64 })
    // Empty lines before a request line are allowed (RFC 9112 2.2): only CR/LF is not yet a request.
    .filter((bytes) => bytes.some((b) => b !== 10 && b !== 13))
    .map((bytes) => ({
      route: 'raw' as const,
      bytes: [Buffer.from(bytes).toString('latin1'), '', ''],
      how: `garbage bytes ${JSON.stringify(Buffer.from(bytes).toString('latin1'))}`,
    })),
  fc
    .record({
      line: fc.constantFrom(
        'GET /api/locale HTTP/9.9',
        'GET /api/locale HTTP/1.0',
        'get /api/locale HTTP/1.1',
        'GET /api/ locale HTTP/1.1',
        'GET http://evil.example/api/state HTTP/1.1',
        'GET * HTTP/1.1',
        `GET /api/media?id=${'a'.repeat(20_000)} HTTP/1.1`,
        'GET /api/locale',
        'GET /api/state?%%% HTTP/1.1',
        'BREW /api/locale HTTP/1.1',
      ),
      headers: fc.subarray(
        [
          'Host: 127.0.0.1',
          'Host: 127.0.0.1',
          'Authorization: Bearer test-code-7f3k-9q2m',
          'Authorization: Bearer wrong',
          'Content-Length: 0',
          'Content-Length: 0',
          'Content-Length: -1',
          'Content-Length: +5',
          'Transfer-Encoding: chunked',
          'No-Colon-Here',
          'Space : before-colon',
          ' folded: continuation',
          'X-Nul: a\u0000b',
          `X-Big: ${'b'.repeat(17_000)}`,
        ],
        { maxLength: 4 },
      ),
      flood: fc.oneof(
        { weight: 8, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.constantFrom(50, 1100) },
      ),
    })
    .map(({ line, headers, flood }) => ({
      route: 'raw' as const,
      bytes: [
        line,
        ...headers,
        ...Array.from({ length: flood }, (_, i) => `X-Filler-${i}: x`),
        // A chunked head gets its terminating chunk, so the server never waits for more.
        ...(headers.includes('Transfer-Encoding: chunked') ? ['', '0', '', ''] : ['', '']),
      ],
      how: `raw head: ${line.slice(0, 60)} + ${headers.length} odd headers${flood ? ` + ${flood} fillers` : ''}`,
    })),
);

const MEDIA_ID: fc.Arbitrary<MediaId> = fc.oneof(
  { weight: 4, arbitrary: fc.nat(100) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(zodArbitrary(contract.media.query.shape.id), fc.base64String({ minLength: 22, maxLength: 64 }))
      .map((literal) => ({ literal })),
  },
  { weight: 1, arbitrary: fc.constantFrom<MediaId>('repeated', 'missing') },
);

const EVENTS_QUERY = fc.constantFrom('', '', '', '?frames=compact', '?compact=1', '?x=1&x=2', '?%zz');

/** Any plan, with the mix a fuzz run uses: actions most, every route often. */
const PLAN: fc.Arbitrary<Plan> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      route: fc.constant<'action'>('action'),
      auth: AUTH,
      contentType: CONTENT_TYPE,
      body: ACTION_BODY,
      framing: FRAMING,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      route: fc.constant<'state'>('state'),
      method: METHOD_GET,
      auth: AUTH,
      framing: FRAMING,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      route: fc.constant<'locale'>('locale'),
      method: METHOD_GET,
      query: fc.constantFrom('', '?lang=de', '?a=%00', '?x'),
      framing: FRAMING,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      route: fc.constant<'events'>('events'),
      auth: AUTH,
      lastEventId: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('none', 'current', 'old') },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      ),
      query: EVENTS_QUERY,
      framing: FRAMING,
    }),
  },
  { weight: 3, arbitrary: UPLOAD },
  {
    weight: 3,
    arbitrary: fc.record({
      route: fc.constant<'media'>('media'),
      method: fc.constantFrom('GET', 'GET', 'HEAD'),
      id: MEDIA_ID,
      framing: FRAMING,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      route: fc.constant<'misc'>('misc'),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      target: fc.constantFrom(
        '/api/nope',
        '/api/state/',
        '/API/STATE',
        '/api/action',
        '/api/upload',
        '/api',
        '/',
        '/api/media/x',
        '/api//state',
        '/api/%2e%2e/state',
      ),
      auth: AUTH,
      framing: FRAMING,
    }),
  },
  { weight: 1, arbitrary: RAW },
);

/** One step of a run: a lone request checked closely, or a burst of concurrent ones. */
export type Step =
  | { readonly kind: 'one'; readonly plan: Plan }
  | { readonly kind: 'burst'; readonly plans: readonly Plan[] };

/** A step: mostly lone requests (so "a refused action changes nothing" can be checked exactly). */
export const STEP: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: PLAN.map((plan) => ({ kind: 'one' as const, plan })) },
  {
    weight: 1,
    arbitrary: fc
      .array(PLAN, { minLength: 2, maxLength: 8 })
      .map((plans) => ({ kind: 'burst' as const, plans })),
  },
);
