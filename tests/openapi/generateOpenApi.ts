import type { Oas3Definition, Oas3Server } from '@redocly/openapi-core';
import { generateOpenApi } from '@ts-rest/open-api';
import { contract, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@webbridge/contract';
import { componentSchemas } from './componentSchemas';
import { ACCESS_CODE_SCHEME, describeRoutes, PROTOCOL_HEADER_COMPONENT } from './describeRoutes';
import { nameSchemas } from './nameSchemas';
import { toOpenApi30 } from './openApi30';

/** `webbridge serve --port` default (host/src/cli/parseServeArgs.ts). */
const DEFAULT_PORT = '7878';

const INFO = {
  title: 'webbridge',
  version: String(PROTOCOL_VERSION),
  description:
    'Share and drive a live AI chat session from a browser: read the state (a snapshot, then a ' +
    'stream of deltas) and post actions. Protected routes take `Authorization: Bearer <access code>`; ' +
    '/api/locale and /api/media are public (a media id is its own credential). Every error is ' +
    `\`application/problem+json\` (RFC 9457) with a stable \`code\`, and every response carries ` +
    `\`${PROTOCOL_HEADER}\`. The normative types are the zod schemas of @webbridge/contract; the ` +
    'prose is docs/PROTOCOL.md.',
};

const SERVERS: Oas3Server[] = [
  {
    url: 'http://127.0.0.1:{port}',
    description: 'This machine: `webbridge serve` listens on loopback, plain HTTP, by default.',
    variables: { port: { default: DEFAULT_PORT } },
  },
  {
    url: 'https://{host}:{port}',
    description:
      "Across the LAN (`--host 0.0.0.0`): HTTPS with a certificate from the bridge's own certificate " +
      'authority; trust its certificate once (the console shows its SHA-256 fingerprint).',
    variables: {
      host: { default: '192.168.1.20', description: 'An address or name the host prints when it starts.' },
      port: { default: DEFAULT_PORT },
    },
  },
];

/**
 * The OpenAPI 3.0 document of the protocol, derived from the contract (never written by hand):
 * ts-rest renders the routes and schemas; `describeRoutes` adds what the contract cannot say
 * (security, raw and streamed bodies, problem+json, headers), `nameSchemas` names the schemas
 * so generators can name their types, and `toOpenApi30` fixes keyword forms of JSON Schema 2020.
 */
export function openApiDocument(): Oas3Definition {
  const rendered = generateOpenApi(contract, { info: INFO }, { setOperationId: true });
  const doc = JSON.parse(JSON.stringify(rendered)) as Oas3Definition;
  describeRoutes(doc);
  nameSchemas(doc, componentSchemas());
  toOpenApi30(doc);
  return {
    openapi: doc.openapi,
    info: INFO,
    servers: SERVERS,
    paths: doc.paths ?? {},
    components: {
      schemas: doc.components?.schemas ?? {},
      headers: { Protocol: PROTOCOL_HEADER_COMPONENT },
      securitySchemes: {
        [ACCESS_CODE_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The access code `webbridge serve` prints (also in its QR code), or the view code, which ' +
            'reads state, events and media but gets 403 `view_only` from /api/action and /api/upload. ' +
            'Rotating a code invalidates the old one at once; repeated wrong codes are slowed down ' +
            '(429 with `Retry-After`).',
        },
      },
    },
  };
}
