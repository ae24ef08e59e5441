import { type Action, actionSchema, contract, MAX_JSON, type Snapshot } from '@webbridge/contract';
import type { ActionBody, Auth, Framing, Identity, MediaId, Plan, UploadSize } from './plans';
import type { WireRequest } from './wire';

/** The prefix of the action ids the fuzzer makes itself (unique, unlike generated ones). */
export const FRESH_PREFIX = 'fuzz-';

/** What a plan is resolved against: the host's address and code, and the latest state seen. */
export interface ResolveContext {
  readonly port: number;
  readonly code: string;
  readonly uploadLimit: number;
  readonly snapshot: Snapshot;
  /** Action ids sent so far, oldest first (for retries of a real id). */
  readonly actionIds: readonly string[];
  /** A counter for fresh action ids. */
  readonly serial: number;
  /** The `id:` of the last state event read, for Last-Event-ID. */
  readonly lastEventId: string | undefined;
}

/** A resolved request and what the oracle knows about it. */
export interface Resolved {
  readonly wire: WireRequest;
  readonly route: Plan['route'];
  /** A readable one-line description for failure reports. */
  readonly label: string;
  /** The head is ordinary: right Host, no junk headers, the access code as the protocol says. */
  readonly clean: boolean;
  /** For actions: the body as sent parses as an action (else undefined). */
  readonly action?: Action;
  /** For actions and uploads: the request could change state. */
  readonly mutating: boolean;
  /** For uploads: the query and length are valid. */
  readonly uploadValid?: boolean;
  /** For media: the id is one the state handed out. */
  readonly knownMedia?: { readonly size: number };
  /** For events: no usable Last-Event-ID, so the stream must start with a snapshot. */
  readonly expectSnapshotFirst?: boolean;
}

/** Tool calls the echo model makes on request (never `run_command`: a fuzzer runs no commands). */
const TOOL_TEXTS = [
  '/tool write_file {"path":"fuzz.txt","content":"hello"}',
  '/tool read_file {"path":"fuzz.txt"}',
  '/tool list_files {}',
  '/tool patch_file {"path":"fuzz.txt","find":"hello","replace":"bye"}',
  '/tool no_such_tool {}',
  '/tool write_file not-json',
];

const pick = <T>(list: readonly T[], index: number): T | undefined =>
  list.length === 0 ? undefined : list[index % list.length];

function headersFor(ctx: ResolveContext, auth: Auth | null, framing: Framing): [string, string][] {
  const lines: [string, string][] = [];
  const own = `127.0.0.1:${ctx.port}`;
  if (framing.host === 'good') lines.push(['Host', own]);
  else if (framing.host === 'localhost') lines.push(['Host', `localhost:${ctx.port}`]);
  else if (framing.host === 'foreign') lines.push(['Host', 'evil.example']);
  else lines.push(['Host', own], ['Host', 'evil.example']);
  const bearer = `Bearer ${ctx.code}`;
  switch (auth) {
    case null:
    case 'none':
      break;
    case 'good':
      lines.push(['Authorization', bearer]);
      break;
    case 'wrong':
      lines.push(['Authorization', 'Bearer wrong-code-000']);
      break;
    case 'empty':
      lines.push(['Authorization', 'Bearer ']);
      break;
    case 'basic':
      lines.push(['Authorization', `Basic ${Buffer.from(`x:${ctx.code}`).toString('base64')}`]);
      break;
    case 'lowerScheme':
      lines.push(['Authorization', `bearer ${ctx.code}`]);
      break;
    case 'twice':
      lines.push(['Authorization', bearer], ['Authorization', 'Bearer wrong-code-000']);
      break;
    case 'padded':
      lines.push(['Authorization', `Bearer  ${ctx.code}`]);
      break;
    default: {
      const never: never = auth;
      throw new Error(`unknown auth ${String(never)}`);
    }
  }
  lines.push(...framing.extra.map(([name, value]): [string, string] => [name, value]));
  return lines;
}

const isClean = (auth: Auth | null, framing: Framing) =>
  (auth === null || auth === 'good') &&
  (framing.host === 'good' || framing.host === 'localhost') &&
  framing.extra.length === 0;

/** The media ids the state hands out, with the sizes of their files. */
function mediaOf(s: Snapshot): { id: string; size: number }[] {
  return [...s.conversations.pending, ...s.conversations.messages.flatMap((m) => m.attachments)].map((a) => ({
    id: a.media.id,
    size: a.size,
  }));
}

/** Every attachment id in the state (pending and sent). */
function attachmentIdsOf(s: Snapshot): string[] {
  return [...s.conversations.pending, ...s.conversations.messages.flatMap((m) => m.attachments)].map(
    (a) => a.id,
  );
}

/** Candidates from the state for each picked field of an action. */
function candidates(s: Snapshot, field: string, action: string): readonly unknown[] {
  switch (field) {
    case 'conversationId':
      return s.conversations.list.map((c) => c.id);
    case 'projectId':
      return s.projects.list.map((p) => p.id);
    case 'messageId':
      return s.conversations.messages.map((m) => m.id);
    case 'approvalId':
      return s.approvals.map((a) => a.id);
    case 'attachmentId':
      return attachmentIdsOf(s);
    case 'attachmentIds':
      return [s.conversations.pending.map((a) => a.id), []];
    case 'modelId':
      return s.models.list.map((m) => m.id);
    case 'uri':
      return s.projects.roots.flatMap((r) => [r.uri, `${r.uri}/sub`, `${r.uri}/../..`]);
    case 'index':
      return [0, 1, 2];
    case 'text':
      return action === 'send' || action === 'editMessage' ? [...TOOL_TEXTS, 'hello fuzz', ''] : [];
    default:
      return [];
  }
}

function identityOf(s: Snapshot, identity: Identity): Record<string, unknown> {
  const current = {
    sessionRevision: s.sessionRevision,
    conversationId: s.conversationId,
    projectId: s.projectId,
    instanceId: s.instanceId,
  };
  switch (identity) {
    case 'current':
      return current;
    case 'currentNoInstance': {
      const { instanceId: _omitted, ...rest } = current;
      return rest;
    }
    case 'staleRevision':
      return { ...current, sessionRevision: s.sessionRevision === 0 ? 1 : s.sessionRevision - 1 };
    case 'otherConversation': {
      const other = s.conversations.list.find((c) => c.id !== s.conversationId)?.id ?? 'no-such-conversation';
      return { ...current, conversationId: other };
    }
    case 'generated':
      return {};
    default: {
      const never: never = identity;
      throw new Error(`unknown identity ${String(never)}`);
    }
  }
}

/** The JSON text of an action body, with state references and identity filled in. */
function actionText(body: ActionBody, ctx: ResolveContext): string {
  if (body.kind === 'text') return body.text;
  const value = body.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return JSON.stringify(value);
  const out: Record<string, unknown> = { ...value };
  const name = typeof out.action === 'string' ? out.action : '';
  const sensitive = 'sessionRevision' in out || 'conversationId' in out;
  for (const [field, index] of Object.entries(body.picks)) {
    // The identity fields of a sensitive action come from `identity`, not from picks.
    if (
      !(field in out) ||
      (sensitive && (field === 'conversationId' || field === 'projectId') && 'sessionRevision' in out)
    )
      continue;
    const chosen = pick(candidates(ctx.snapshot, field, name), index);
    if (chosen !== undefined) out[field] = chosen;
  }
  if ('sessionRevision' in out) Object.assign(out, identityOf(ctx.snapshot, body.identity));
  if (body.actionId === 'fresh') out.actionId = `${FRESH_PREFIX}${ctx.serial.toString(36).padStart(8, '0')}`;
  else if (typeof body.actionId === 'object') {
    const reused = pick([...ctx.actionIds].reverse(), body.actionId.reuse);
    if (reused !== undefined) out.actionId = reused;
  }
  // Spread above keeps an own `__proto__` key only as a data property; JSON keeps it as text.
  return JSON.stringify(out);
}

function uploadTarget(
  plan: Extract<Plan, { route: 'upload' }>,
  ctx: ResolveContext,
): { target: string; valid: boolean } {
  const query: Record<string, unknown> = { ...plan.query };
  if (plan.conversation === 'current') query.conversationId = ctx.snapshot.conversationId;
  else if (typeof plan.conversation === 'number') {
    const chosen = pick(ctx.snapshot.conversations.list, plan.conversation);
    if (chosen) query.conversationId = chosen.id;
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  if (plan.repeat !== null) params.append(plan.repeat, 'second');
  // Judged as the server sees it: every query value is a string on the wire, and a name given
  // twice is ambiguous.
  const keys = [...params.keys()];
  const valid =
    new Set(keys).size === keys.length && contract.upload.query.safeParse(Object.fromEntries(params)).success;
  return { target: `/api/upload?${params.toString()}`, valid };
}

function uploadBody(
  size: UploadSize,
  limit: number,
): { body: Buffer; length: string | null; validLength: boolean } {
  const bytes = (n: number) => Buffer.alloc(n, 0x61);
  if (size === 'limit') return { body: bytes(limit), length: String(limit), validLength: true };
  if (size === 'overLimit') return { body: bytes(limit + 1), length: String(limit + 1), validLength: false };
  if (size === 'empty') return { body: bytes(0), length: '0', validLength: false };
  if (size === 'noLength') return { body: bytes(0), length: null, validLength: false };
  return { body: bytes(size), length: String(size), validLength: true };
}

function mediaTarget(id: MediaId, s: Snapshot): { target: string; known?: { size: number } } {
  if (id === 'missing') return { target: '/api/media' };
  const media = mediaOf(s);
  if (id === 'repeated') {
    const first = media[0]?.id ?? 'a'.repeat(22);
    return { target: `/api/media?id=${encodeURIComponent(first)}&id=${'b'.repeat(22)}` };
  }
  if (typeof id === 'number') {
    const chosen = pick(media, id);
    if (chosen)
      return { target: `/api/media?id=${encodeURIComponent(chosen.id)}`, known: { size: chosen.size } };
    return { target: `/api/media?id=${'c'.repeat(22)}` };
  }
  return { target: `/api/media?id=${encodeLiteral(id.literal)}` };
}

/**
 * `encodeURIComponent`, except that a lone surrogate (which it refuses with a URIError) is sent
 * as the bytes WTF-8 gives it: the server then sees percent-escapes that are not UTF-8, which is
 * worth sending anyway.
 */
function encodeLiteral(literal: string): string {
  return literal.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\s\S]/gu,
    (unit) => {
      const code = unit.charCodeAt(0);
      if (unit.length > 1 || code < 0xd800 || code > 0xdfff) return encodeURIComponent(unit);
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      return bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    },
  );
}

/** Turns a plan into the bytes to send, given the latest state. */
export function resolvePlan(plan: Plan, ctx: ResolveContext): Resolved {
  switch (plan.route) {
    case 'locale':
      return {
        wire: {
          method: plan.method,
          target: `/api/locale${plan.query}`,
          headers: headersFor(ctx, null, plan.framing),
        },
        route: plan.route,
        label: `${plan.method} /api/locale${plan.query}`,
        clean: isClean(null, plan.framing),
        mutating: false,
      };
    case 'state':
      return {
        wire: {
          method: plan.method,
          target: '/api/state',
          headers: headersFor(ctx, plan.auth, plan.framing),
        },
        route: plan.route,
        label: `${plan.method} /api/state auth=${plan.auth}`,
        clean: isClean(plan.auth, plan.framing),
        mutating: false,
      };
    case 'action': {
      const text = actionText(plan.body, { ...ctx });
      const body = Buffer.from(text);
      const headers = headersFor(ctx, plan.auth, plan.framing);
      if (plan.contentType !== null) headers.push(['Content-Type', plan.contentType]);
      headers.push(['Content-Length', String(body.length)]);
      let action: Action | undefined;
      try {
        const parsed = actionSchema.safeParse(JSON.parse(text));
        action = parsed.success ? parsed.data : undefined;
      } catch {
        action = undefined;
      }
      return {
        wire: { method: 'POST', target: '/api/action', headers, body },
        route: plan.route,
        label: `POST /api/action auth=${plan.auth} type=${plan.contentType} (${plan.body.how}) ${text.length > 300 ? `${text.slice(0, 300)}…(${body.length} bytes)` : text}`,
        clean:
          isClean(plan.auth, plan.framing) &&
          plan.contentType === 'application/json' &&
          body.length <= MAX_JSON,
        ...(action === undefined ? {} : { action }),
        mutating: true,
      };
    }
    case 'events': {
      const headers = headersFor(ctx, plan.auth, plan.framing);
      let resumable = false;
      if (plan.lastEventId === 'current' && ctx.lastEventId !== undefined) {
        headers.push(['Last-Event-ID', ctx.lastEventId]);
        resumable = true;
      } else if (plan.lastEventId === 'old') headers.push(['Last-Event-ID', `${ctx.snapshot.instanceId}.0`]);
      else if (plan.lastEventId !== 'none' && plan.lastEventId !== 'current')
        headers.push(['Last-Event-ID', plan.lastEventId]);
      return {
        wire: { method: 'GET', target: `/api/events${plan.query}`, headers, stream: true },
        route: plan.route,
        label: `GET /api/events${plan.query} auth=${plan.auth} last-event-id=${plan.lastEventId}`,
        clean: isClean(plan.auth, plan.framing),
        mutating: false,
        // `old` names seq 0 of this run, which a server may still resume from or answer with a snapshot.
        expectSnapshotFirst: !resumable && plan.lastEventId !== 'old',
      };
    }
    case 'upload': {
      const { target, valid } = uploadTarget(plan, ctx);
      const { body, length, validLength } = uploadBody(plan.size, ctx.uploadLimit);
      const headers = headersFor(ctx, plan.auth, plan.framing);
      if (plan.contentType !== null) headers.push(['Content-Type', plan.contentType]);
      if (length !== null) headers.push(['Content-Length', length]);
      return {
        wire: { method: 'POST', target, headers, body },
        route: plan.route,
        label: `POST ${target.slice(0, 200)} auth=${plan.auth} type=${plan.contentType} size=${plan.size}`,
        clean: isClean(plan.auth, plan.framing),
        mutating: true,
        uploadValid: valid && validLength,
      };
    }
    case 'media': {
      const { target, known } = mediaTarget(plan.id, ctx.snapshot);
      return {
        wire: { method: plan.method, target, headers: headersFor(ctx, null, plan.framing) },
        route: plan.route,
        label: `${plan.method} ${target.slice(0, 120)}`,
        clean: isClean(null, plan.framing),
        mutating: false,
        ...(known ? { knownMedia: known } : {}),
      };
    }
    case 'misc': {
      const headers = headersFor(ctx, plan.auth, plan.framing);
      const hasBody = plan.method !== 'GET';
      if (hasBody) headers.push(['Content-Type', 'application/json'], ['Content-Length', '2']);
      return {
        wire: {
          method: plan.method,
          target: plan.target,
          headers,
          ...(hasBody ? { body: Buffer.from('{}') } : {}),
        },
        route: plan.route,
        label: `${plan.method} ${plan.target} auth=${plan.auth}`,
        clean: isClean(plan.auth, plan.framing),
        // A GET on /api/action is a 405; a POST to /api/action with {} is a 400: nothing changes.
        mutating: plan.method !== 'GET' && (plan.target === '/api/action' || plan.target === '/api/upload'),
      };
    }
    case 'raw':
      return {
        wire: {
          method: 'RAW',
          target: '',
          headers: [],
          body: Buffer.from(plan.bytes.join('\r\n'), 'latin1'),
        },
        route: plan.route,
        label: plan.how,
        clean: false,
        mutating: false,
      };
    default: {
      const never: never = plan;
      throw new Error(`unknown plan ${JSON.stringify(never)}`);
    }
  }
}
