import { initContract } from '@ts-rest/core';
import { actionResponseSchema, actionResultSchemas, actionSchema, uploadResponseSchema } from './actions';
import {
  devicesResponseSchema,
  forgetDeviceRequestSchema,
  forgetDeviceResponseSchema,
  pairRequestSchema,
  pairResponseSchema,
} from './devices';
import { eventsQuerySchema } from './events';
import {
  actionHeadersSchema,
  eventsHeadersSchema,
  pairHeadersSchema,
  pushDecideHeadersSchema,
  stateHeadersSchema,
  uploadHeadersSchema,
} from './headers';
import { localeSchema } from './locale';
import { problemSchema, sessionMismatchSchema } from './problem';
import { pushDecisionSchema } from './push';
import { mediaQuerySchema, uploadQuerySchema } from './queries';
import { snapshotSchema } from './snapshot';

const c = initContract();

const authErrors = { 401: problemSchema, 403: problemSchema, 429: problemSchema } as const;

/**
 * Every route of the protocol: its path, method, query, request headers, body and responses.
 * The server serves each as a plain Hono route typed from here; clients, mocks and docs derive
 * from it too. Routes need a code unless marked `metadata: { public: true }`.
 */
export const contract = c.router(
  {
    locale: {
      method: 'GET',
      path: '/api/locale',
      summary: 'Language, strings and protocol version for the connection page (public).',
      metadata: { public: true } as const,
      responses: { 200: localeSchema },
    },
    state: {
      method: 'GET',
      path: '/api/state',
      summary: 'The full current state.',
      headers: stateHeadersSchema,
      responses: { 200: snapshotSchema, ...authErrors },
    },
    action: {
      method: 'POST',
      path: '/api/action',
      summary: 'Apply one action; state changes arrive on the event stream.',
      headers: actionHeadersSchema,
      body: actionSchema,
      responses: {
        200: actionResponseSchema,
        400: problemSchema,
        ...authErrors,
        404: problemSchema,
        409: sessionMismatchSchema,
        411: problemSchema,
        413: problemSchema,
        415: problemSchema,
        422: problemSchema,
      },
    },
    events: {
      method: 'GET',
      path: '/api/events',
      summary:
        'Server-sent events: a snapshot, then deltas and heartbeats, each update an `event: state` unless ?frames=compact.',
      query: eventsQuerySchema,
      headers: eventsHeadersSchema,
      responses: {
        200: c.otherResponse({ contentType: 'text/event-stream', body: c.type<string>() }),
        400: problemSchema,
        ...authErrors,
      },
    },
    upload: {
      method: 'POST',
      path: '/api/upload',
      summary:
        'Upload one file (raw body) as a pending attachment of the conversation named by conversationId (default: the current one).',
      query: uploadQuerySchema,
      headers: uploadHeadersSchema,
      body: c.type<Blob | ArrayBuffer | Uint8Array>(),
      responses: {
        201: uploadResponseSchema,
        400: problemSchema,
        ...authErrors,
        404: problemSchema,
        411: problemSchema,
        413: problemSchema,
      },
    },
    pushDecide: {
      method: 'POST',
      path: '/api/push/decide',
      summary:
        'Answer one approval with the approval token of its push message (no Bearer: the token is the credential; single use, void once the approval is answered).',
      metadata: { public: true } as const,
      headers: pushDecideHeadersSchema,
      body: pushDecisionSchema,
      responses: {
        200: actionResultSchemas.approve,
        400: problemSchema,
        404: problemSchema,
        411: problemSchema,
        413: problemSchema,
        415: problemSchema,
      },
    },
    media: {
      method: 'GET',
      path: '/api/media',
      summary: 'Read the one file a media id grants (no Bearer: the id is the credential).',
      metadata: { public: true } as const,
      query: mediaQuerySchema,
      responses: {
        200: c.otherResponse({ contentType: 'application/octet-stream', body: c.type<Blob>() }),
        404: problemSchema,
      },
    },
    pair: {
      method: 'POST',
      path: '/api/pair',
      summary:
        'Pair this browser (public): redeem a one-time pairing token from a link, or the typed code, for a device credential.',
      metadata: { public: true } as const,
      headers: pairHeadersSchema,
      body: pairRequestSchema,
      responses: {
        200: pairResponseSchema,
        400: problemSchema,
        401: problemSchema,
        403: problemSchema,
        411: problemSchema,
        413: problemSchema,
        415: problemSchema,
        422: problemSchema,
        429: problemSchema,
      },
    },
    devices: {
      method: 'GET',
      path: '/api/devices',
      summary: 'The paired devices, and which one is asking.',
      headers: stateHeadersSchema,
      responses: { 200: devicesResponseSchema, ...authErrors },
    },
    forgetDevice: {
      method: 'POST',
      path: '/api/devices/forget',
      summary:
        'Forget a paired device: its credential stops working, its streams end, media ids are revoked. A view device may forget only itself.',
      // A watching device may forget itself (Disconnect); the route refuses it any other device.
      metadata: { viewAllowed: true } as const,
      headers: actionHeadersSchema,
      body: forgetDeviceRequestSchema,
      responses: {
        200: forgetDeviceResponseSchema,
        400: problemSchema,
        ...authErrors,
        404: problemSchema,
        411: problemSchema,
        413: problemSchema,
        415: problemSchema,
      },
    },
  },
  { strictStatusCodes: true },
);

/** The protocol's router contract. */
export type Contract = typeof contract;
