import { z } from 'zod';
import { sessionIdentitySchema } from './identity';
import { approvalDecisionSchema } from './snapshot';

/**
 * Every machine-readable error code of the protocol with its HTTP status.
 * 409 is used for `session_mismatch` only, so a client may act on it blindly.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  duplicate_header: 400,
  unauthorized: 401,
  pairing_token_spent: 401,
  pairing_token_expired: 401,
  forbidden_host: 403,
  workspace_forbidden: 403,
  view_only: 403,
  https_required: 400,
  not_found: 404,
  request_timeout: 408,
  method_not_allowed: 405,
  session_mismatch: 409,
  length_required: 411,
  chunked_not_allowed: 411,
  payload_too_large: 413,
  header_too_large: 431,
  unsupported_media_type: 415,
  not_applicable: 422,
  device_name_taken: 422,
  too_many_devices: 422,
  rate_limited: 429,
  internal: 500,
} as const;

/** A stable machine code of an error. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** All error codes, for schemas and exhaustive tests. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** Human titles for each code, used as the problem's `title`. */
export const ERROR_TITLE: { readonly [K in ErrorCode]: string } = {
  invalid_request: 'Invalid request',
  duplicate_header: 'Duplicate header',
  unauthorized: 'Unauthorized',
  pairing_token_spent: 'Pairing link already used',
  pairing_token_expired: 'Pairing link expired',
  forbidden_host: 'Forbidden host',
  workspace_forbidden: 'Workspace forbidden',
  view_only: 'View only',
  https_required: 'HTTPS required',
  not_found: 'Not found',
  request_timeout: 'Request timeout',
  method_not_allowed: 'Method not allowed',
  session_mismatch: 'Session changed',
  length_required: 'Length required',
  chunked_not_allowed: 'Chunked transfer not allowed',
  payload_too_large: 'Payload too large',
  header_too_large: 'Request header fields too large',
  unsupported_media_type: 'Unsupported media type',
  not_applicable: 'Action not applicable',
  device_name_taken: 'Device name taken',
  too_many_devices: 'Too many devices',
  rate_limited: 'Too many requests',
  internal: 'Internal error',
};

/** Content type of every error body (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** One validation issue, as reported in a 400 `invalid_request` problem. */
export const validationIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});

/** The problem+json error body (RFC 9457) with the protocol's machine `code`. */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.enum(ERROR_CODES),
  /** Present on 400 `invalid_request`: what was wrong with the body or query. */
  issues: z.array(validationIssueSchema).optional(),
  /** Present on 409 `session_mismatch`: where a send would land now. */
  current: sessionIdentitySchema.optional(),
  /**
   * Present on 422 `not_applicable` to an `approve` whose approval was already answered: how,
   * by whom and when, so a page that missed it can show what happened at once.
   */
  decided: approvalDecisionSchema.extend({ approvalId: z.string() }).optional(),
});

/** An error body as it travels on the wire. */
export type Problem = z.infer<typeof problemSchema>;

/** The 409 body: a problem that always carries the current identity. */
export const sessionMismatchSchema = problemSchema.extend({
  code: z.literal('session_mismatch'),
  current: sessionIdentitySchema,
});

/** The `type` URI of a problem with this code. */
export function problemType(code: ErrorCode): string {
  return `https://webbridge.dev/problems/${code.replaceAll('_', '-')}`;
}
