import {
  createFetchHandler,
  RequestValidationError,
  TsRestHttpError,
  TsRestResponse,
  tsr,
} from '@ts-rest/serverless/fetch';
import { contract, PROBLEM_CONTENT_TYPE } from '@webbridge/contract';
import type { Logger } from 'pino';
import type { ZodError } from 'zod';
import type { ActionDispatcher } from '../actions/ActionDispatcher';
import type { HostAdapter } from '../adapter';
import { BridgeError } from '../errors/BridgeError';
import { problemBody } from '../errors/renderProblem';
import { describeError } from '../logging/describeError';
import type { WireMapper } from '../media/toWire';

/** The routes served through ts-rest: their request and response types come from the contract. */
const served = { locale: contract.locale, state: contract.state, action: contract.action };

/** What the app passes along with each request. */
export interface TsRestContext {
  /** Who sent the request (the auth throttle's grouping), for the actionId memory. */
  readonly client: string;
}

/** Serves one request of the ts-rest routes. */
type TsRestHandler = (request: Request, context: TsRestContext) => Promise<Response>;

/** Dependencies of the ts-rest routes. */
export interface TsRestDeps {
  readonly host: HostAdapter;
  readonly wire: WireMapper;
  readonly dispatcher: ActionDispatcher;
  readonly logger: Logger;
}

/**
 * Builds the fetch handler for /api/locale, /api/state and /api/action. The guards (auth,
 * headers, body limit) have already run: ts-rest reads JSON bodies without a limit.
 */
export function createTsRestHandler({ host, wire, dispatcher, logger }: TsRestDeps): TsRestHandler {
  const router = tsr.platformContext<TsRestContext>().router(served, {
    locale: async () => ({ status: 200, body: host.locale() }),
    state: async () => ({ status: 200, body: wire.snapshot(host.readState()) }),
    action: async ({ body }, { client }) => ({ status: 200, body: await dispatcher.dispatch(body, client) }),
  });
  const handle: TsRestHandler = createFetchHandler(served, router, {
    jsonQuery: false,
    responseValidation: false,
    errorHandler: (error) => {
      const known = toBridgeError(error);
      if (!(known instanceof BridgeError)) logger.error({ err: describeError(known) }, 'unhandled error');
      return problemResponse(known);
    },
  });
  return (request, context) => handle(withCanonicalJsonType(request), context);
}

/**
 * ts-rest reads a body as JSON only when its Content-Type contains `json` in lower case, and
 * otherwise hands the handler no body at all (a misleading "Required"). Media types are
 * case-insensitive (RFC 9110 §8.3.1), so `APPLICATION/JSON; charset=utf-8` is written the way
 * ts-rest looks for it.
 */
function withCanonicalJsonType(request: Request): Request {
  const type = request.headers.get('content-type');
  if (type?.split(';')[0]?.trim().toLowerCase() === 'application/json') {
    request.headers.set('content-type', 'application/json');
  }
  return request;
}

function toBridgeError(error: unknown): unknown {
  if (error instanceof RequestValidationError) {
    const zodError: ZodError | null =
      error.bodyError ?? error.queryError ?? error.headersError ?? error.pathParamsError;
    const issues = (zodError?.issues ?? []).map((issue) => ({
      path: issue.path,
      message: issue.message,
    }));
    return new BridgeError('invalid_request', 'The request does not match the protocol.', { issues });
  }
  // ts-rest parses the body with request.json(), which throws a plain SyntaxError.
  if (error instanceof SyntaxError || (error instanceof TsRestHttpError && error.statusCode === 400)) {
    return new BridgeError('invalid_request', 'The body is not valid JSON.');
  }
  return error;
}

function problemResponse(error: unknown): TsRestResponse {
  const body = problemBody(error);
  return new TsRestResponse(JSON.stringify(body), {
    status: body.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store' },
  });
}
