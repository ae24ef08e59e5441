import type {
  Oas3Definition,
  Oas3Header,
  Oas3MediaType,
  Oas3Operation,
  Oas3PathItem,
  Oas3RequestBody,
  Oas3Response,
  Oas3Schema,
} from '@redocly/openapi-core';
import {
  ACCESS_HEADER,
  contract,
  DEFAULT_MEDIA_TTL_MS,
  DEFAULT_UPLOAD_LIMIT,
  ERROR_CODES,
  ERROR_STATUS,
  ERROR_TITLE,
  isPublicRoute,
  MAX_JSON,
  PROBLEM_CONTENT_TYPE,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  SENSITIVE_ACTIONS,
} from '@webbridge/contract';
import { schemaRef } from './nameSchemas';

/** The security scheme of the protected routes. */
export const ACCESS_CODE_SCHEME = 'accessCode';

/** What the contract cannot say about a route: stream and file bodies, headers, prose. */
interface RouteDoc {
  /** Description of the success response. */
  readonly ok: string;
  readonly description?: string;
  /** The success body when it is not JSON (ts-rest renders none for it). */
  readonly okContent?: Record<string, Oas3MediaType>;
  readonly okHeaders?: Record<string, Oas3Header>;
  readonly requestBody?: Oas3RequestBody;
  /** Descriptions of the contract's query and header parameters, by name. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** Example values of the contract's parameters, by name. */
  readonly examples?: Readonly<Record<string, string>>;
  /** The route also answers HEAD: the GET's status and headers, no body. */
  readonly head?: boolean;
}

const binary = { schema: { type: 'string', format: 'binary' } } as const;

/** Set by the auth guard on the routes' own responses (the event stream bypasses it). */
const accessLevel: Record<string, Oas3Header> = {
  [ACCESS_HEADER]: {
    description: 'What the presented code allows: `control` (the access code) or `view` (the view code).',
    schema: { type: 'string', enum: ['control', 'view'] },
  },
};

/** One entry per contract route: a new route does not compile until it is described here. */
const ROUTES: { readonly [K in keyof typeof contract]: RouteDoc } = {
  locale: { ok: 'The language, its strings and the protocol version. Nothing about the state.' },
  state: {
    ok: 'The full current state: identity, conversation, projects, models, tools, settings.',
    okHeaders: accessLevel,
  },
  action: {
    ok: "The action's name and its result. State changes arrive on the event stream, not here.",
    okHeaders: accessLevel,
    description:
      `Actions run one at a time, in arrival order. Session-sensitive actions (${[...SENSITIVE_ACTIONS].join(', ')}) ` +
      'carry `sessionRevision`, `conversationId` and `projectId` from the snapshot; any mismatch is ' +
      '409 and nothing happens. An `actionId` makes a retry safe: the same id returns the first ' +
      'result and does nothing again.',
    requestBody: {
      required: true,
      description: `One action, discriminated on \`action\`; \`Content-Type: application/json\`, at most ${MAX_JSON} bytes.`,
      content: {},
    },
  },
  events: {
    ok: 'A server-sent-event stream that stays open.',
    description:
      'Every state update is an `event: state` frame whose `data` is a snapshot (`kind: "snapshot"`, ' +
      'sent first) or a delta against the seq named by `base`; `event: heartbeat` frames arrive ' +
      'when the stream is idle. The frame formats are in docs/PROTOCOL.md § 10 and the ' +
      '`streamEventSchema` of @webbridge/contract.',
    okContent: {
      'text/event-stream': {
        schema: { type: 'string', description: 'Frames of `event:`, `id:` and `data:` lines.' },
      },
    },
    examples: { 'last-event-id': 'Vx3k9qL2mP0aR7tY.42' },
    parameters: {
      frames:
        '`compact`: a streamed word arrives as a frame without an `event:` line (the SSE type ' +
        '`message`), a few bytes less each; for clients that read every event type. Default ' +
        '`named`: every state update is an `event: state`.',
    },
  },
  upload: {
    ok: 'The file is a pending attachment of the conversation; it is sent with the next send.',
    okHeaders: accessLevel,
    requestBody: {
      required: true,
      description:
        "The file's bytes, with the file's own `Content-Type` (any type) and a `Content-Length` " +
        `(required, at most the host's upload limit, ${DEFAULT_UPLOAD_LIMIT} bytes by default: ` +
        'checked before anything is read). Chunked transfer is refused (411).',
      content: { '*/*': binary },
    },
    parameters: {
      name: "The file's name (1 to 255 characters).",
      conversationId:
        'The conversation the file is for: the one its person was looking at. Default: the current one.',
    },
  },
  pushDecide: {
    ok: 'The approval was answered, as the device the push was sent to.',
    description:
      'For the service worker of a paired device: a push about a waiting approval carries an ' +
      "approval token, and the notification's Allow or Deny posts it here. No Bearer: the token " +
      'is the credential, and it decides only that approval, once. A token that is unknown, used, ' +
      'or void because its approval was answered elsewhere answers 404. docs/PROTOCOL.md, "Push".',
  },
  media: {
    ok: 'The file, with its own type. No Bearer: the media id is the credential.',
    okContent: { '*/*': binary },
    okHeaders: {
      'Content-Disposition': {
        description:
          '`inline` for types a browser may show (images, audio, video, PDF, text), else `attachment`.',
        schema: { type: 'string' },
      },
      'Content-Length': { schema: { type: 'integer', minimum: 0 } },
    },
    parameters: {
      id:
        "An attachment's `media.id` from the snapshot, or from the `refreshMedia` action: at least " +
        `128 random bits, valid ${DEFAULT_MEDIA_TTL_MS / 60_000} minutes by default. Unknown and ` +
        'expired ids answer the same 404.',
    },
    head: true,
  },
  pair: {
    ok: 'A device credential (shown once; the host keeps only its hash) and the paired device.',
    description:
      'Public. Redeems a one-time pairing token (from the link or QR code the host shows: ' +
      '`<url>/#pair=<token>`, single use, valid 10 minutes) or the access or view code typed on the ' +
      'connection page, for a device credential with the role of the token or code. Throttled with ' +
      'the access code: every refused try counts, a locked-out client gets 429. A spent or expired ' +
      'token is 401 `pairing_token_spent` / `pairing_token_expired`; an unknown one, or a wrong code, ' +
      '401 `unauthorized`. The credential is then sent as `Authorization: Bearer <credential>` ' +
      'wherever the code is accepted.',
    requestBody: {
      required: true,
      description:
        '`{ token, name }` or `{ code, name }`; `Content-Type: application/json`, at most 4096 bytes.',
      content: {},
    },
  },
  devices: {
    ok: 'Every paired device (never its credential) and `current`: the device that asks, or null for a code.',
    okHeaders: accessLevel,
  },
  forgetDevice: {
    ok: 'The device is forgotten: its credential is a wrong code from now on.',
    okHeaders: accessLevel,
    description:
      'Its event streams end at once and every media id is revoked (ids are shared between streams, ' +
      'so every browser reconnects with a fresh snapshot). A view code or view device may forget ' +
      'only itself (403 `view_only` otherwise). Unknown id: 404.',
    requestBody: {
      required: true,
      description: '`{ deviceId }`; `Content-Type: application/json`.',
      content: {},
    },
  },
};

/** Extra words for some error statuses, beside their codes. */
const STATUS_NOTES: Readonly<Record<number, string>> = {
  401: 'No access code or device credential, or not a current one (POST /api/pair: a wrong code, or a pairing token unknown, spent or expired).',
  409: 'The session moved on: nothing was applied; `current` says where a send would land now.',
  429: 'Too many wrong codes from this client: wait `Retry-After` seconds.',
};

function errorDescription(status: number): string {
  const codes = ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
  const named = codes.map((code) => `${ERROR_TITLE[code]} (\`${code}\`)`).join(', ');
  return [named, STATUS_NOTES[status]].filter(Boolean).join('. ');
}

const problem = (description: string): Oas3Response => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: schemaRef('Problem') } },
});

/** Error headers the server adds (see server/src/errors/renderProblem.ts). */
const ERROR_HEADERS: Readonly<Record<number, Record<string, Oas3Header>>> = {
  401: { 'WWW-Authenticate': { schema: { type: 'string', enum: ['Bearer'] } } },
  429: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 0 } } },
};

function pathItem(doc: Oas3Definition, path: string): Oas3PathItem {
  const item = doc.paths?.[path];
  if (item === undefined || '$ref' in item) throw new Error(`no path item for ${path}`);
  return item;
}

/**
 * Completes each operation ts-rest rendered: security (Bearer on every route whose contract
 * lists a 401, none elsewhere), bodies it cannot render (raw upload, file, event stream),
 * descriptions, problem+json errors and the headers the server sends.
 */
export function describeRoutes(doc: Oas3Definition): void {
  for (const [name, route] of Object.entries(contract) as [
    keyof typeof contract,
    (typeof contract)[keyof typeof contract],
  ][]) {
    const extra = ROUTES[name];
    const item = pathItem(doc, route.path);
    const operation = item[route.method.toLowerCase() as Lowercase<typeof route.method>];
    if (operation === undefined) throw new Error(`no ${route.method} ${route.path}`);
    operation.security = isPublicRoute(route) ? [] : [{ [ACCESS_CODE_SCHEME]: [] }];
    if (extra.description !== undefined) operation.description = extra.description;
    if (extra.requestBody !== undefined) {
      // An empty `content` keeps the JSON body ts-rest rendered; any other replaces it.
      const rendered = operation.requestBody;
      const content =
        Object.keys(extra.requestBody.content).length === 0 && rendered !== undefined && !('$ref' in rendered)
          ? rendered.content
          : extra.requestBody.content;
      operation.requestBody = { ...extra.requestBody, content };
    }
    const parameters = (operation.parameters ?? []).filter(describedElsewhere).map((parameter) => {
      if ('$ref' in parameter) return parameter;
      const description = extra.parameters?.[parameter.name];
      const example = extra.examples?.[parameter.name];
      return {
        ...parameter,
        ...(description === undefined ? {} : { description }),
        ...(example === undefined ? {} : { example }),
      };
    });
    operation.parameters = parameters;
    describeResponses(operation, extra);
    if (extra.head) item.head = headOf(operation);
  }
}

/**
 * The contract's headers that OpenAPI says in other ways: Authorization by the security scheme
 * and Content-Type by the request body's media type (OpenAPI 3.0 ignores header parameters of
 * those names), Content-Length by every HTTP client from the body it sends.
 */
function describedElsewhere(parameter: NonNullable<Oas3Operation['parameters']>[number]): boolean {
  if ('$ref' in parameter || parameter.in !== 'header') return true;
  return !['authorization', 'content-type', 'content-length'].includes(parameter.name.toLowerCase());
}

function describeResponses(operation: Oas3Operation, extra: RouteDoc): void {
  const protocol = { [PROTOCOL_HEADER]: { $ref: '#/components/headers/Protocol' } };
  const responses: Record<string, Oas3Response> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const code = Number(status);
    if (code < 400) {
      const content = extra.okContent ?? response.content;
      responses[status] = {
        description: extra.ok,
        headers: { ...protocol, ...extra.okHeaders },
        ...(content === undefined ? {} : { content }),
      };
    } else {
      const schema = response.content?.['application/json']?.schema;
      responses[status] = {
        description: errorDescription(code),
        headers: { ...protocol, ...ERROR_HEADERS[code] },
        ...(schema === undefined ? {} : { content: { [PROBLEM_CONTENT_TYPE]: { schema } } }),
      };
    }
  }
  responses['4XX'] = {
    ...problem(
      'Refused by a request guard before the route ran: a duplicate header, a Host that is not ' +
        "one of the server's names, headers too large or too slow.",
    ),
    headers: protocol,
  };
  responses['5XX'] = { ...problem('Internal error; the body never carries internals.'), headers: protocol };
  operation.responses = responses;
}

/** The HEAD twin of a GET: same parameters, security and statuses, no bodies. */
function headOf(get: Oas3Operation): Oas3Operation {
  const responses: Record<string, Oas3Response> = {};
  for (const [status, { content: _body, ...rest }] of Object.entries(get.responses)) responses[status] = rest;
  return {
    ...get,
    operationId: `${get.operationId ?? 'operation'}Head`,
    summary: `Headers of: ${get.summary ?? ''}`,
    responses,
  };
}

/** The response header every API response carries. */
export const PROTOCOL_HEADER_COMPONENT: Oas3Header<Oas3Schema> = {
  description: `The protocol version (${PROTOCOL_VERSION}). A client that sees another one asks its user to reload.`,
  required: true,
  schema: { type: 'integer' },
};
