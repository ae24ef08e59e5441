import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AccessLevel, contract, ProtocolError } from '@webbridge/contract';
import type { Logger } from 'pino';
import type { ActionDispatcher } from '../actions/ActionDispatcher';
import type { Outcome } from '../actions/Outcome';
import { problemReply } from '../errors/renderProblem';
import type { Admitted } from '../guards/authGuard';
import { admit, type FrontDoorDeps, refuseViewOnly } from '../guards/frontDoor';
import { readableHost, UNREADABLE_HEADERS, unreadableRequest } from '../guards/readableHost';
import { describeError } from '../logging/describeError';
import { logRequest } from '../logging/requestLogger';
import { actionHandler } from '../routes/actionRoute';
import { apiHeaders, refusalHeaders } from '../routes/apiHeaders';
import { readIncoming } from '../routes/readJsonBody';

/** What the action lane needs: the front door's checks, the dispatcher and the log. */
export interface ActionLaneDeps extends FrontDoorDeps {
  readonly dispatcher: ActionDispatcher;
  readonly logger: Logger;
}

/** Offered every request first; takes it (true) or leaves it to Hono (false). */
export type NodeLane = (req: IncomingMessage, res: ServerResponse) => boolean;

const ACTION_PATH = contract.action.path;

/**
 * POST /api/action served on Node's request and response, without the Fetch `Request` and
 * `Response` Hono needs: the route every tap of the web client takes, and one whose work is
 * otherwise small, so that translation was half of its cost (docs/PERFORMANCE.md, "Request
 * rate"). Nothing else differs from the Hono route: the same front door ({@link admit}),
 * the same handler ({@link actionHandler}: contract headers, body limit, schema, dispatcher),
 * the same headers and problem bodies, the same request log line. It takes only the exact
 * target `/api/action` (with or without a query) with POST; every other method or spelling
 * goes to Hono, which answers it as it always has (405, 404, a refused absolute-form target).
 */
export function actionLane(deps: ActionLaneDeps): NodeLane {
  const handle = actionHandler(deps.dispatcher);
  const logged = deps.logger.isLevelEnabled('info');

  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    error: unknown,
    access?: AccessLevel,
  ): number => {
    if (!(error instanceof ProtocolError))
      deps.logger.error({ err: describeError(error) }, 'unhandled error');
    return write(res, problemReply(error, refusalHeaders(req, access)));
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    // A Host the adapter could not build a URL from never reached Hono's guards: refused first,
    // the way the adapter refuses it on every other route.
    if (!readableHost(req.headers.host)) {
      return write(res, problemReply(unreadableRequest(), UNREADABLE_HEADERS));
    }
    let admitted: Admitted | undefined;
    let outcome: Outcome;
    try {
      admitted = admit(req, ACTION_PATH, deps);
      refuseViewOnly(ACTION_PATH, admitted);
      // `{ device }` of a paired device; the code itself has none (the dispatcher's default).
      const device = admitted?.device;
      outcome = await handle(req, (max) => readIncoming(req, max), device ? { device } : undefined);
    } catch (error) {
      return refuse(req, res, error, admitted?.access);
    }
    // The action's own refusal (a 409 above all) arrives as a value: no throw on the way.
    if (!outcome.ok) return refuse(req, res, outcome.error, admitted?.access);
    const headers = apiHeaders('application/json', admitted?.access);
    return write(res, { status: 200, headers, body: JSON.stringify(outcome.value) });
  };

  return (req, res) => {
    const target = req.url;
    if (req.method !== 'POST' || target === undefined || !isActionTarget(target)) return false;
    const started = logged ? performance.now() : 0;
    const served = serve(req, res);
    // Nothing here should throw outside its try (nor the log line); if it ever does, the
    // request is cut and logged and the process lives on (an unhandled rejection would end it).
    (logged
      ? served.then((status) =>
          logRequest(deps.logger, { method: 'POST', route: ACTION_PATH, status, started }),
        )
      : served
    ).catch((error: unknown) => {
      deps.logger.error({ err: describeError(error) }, 'unhandled error');
      res.destroy();
    });
    return true;
  };
}

/**
 * An answer ready for Node's response: a result, or a problem (`problemReply`). Its headers are
 * its own object (`apiHeaders` and `problemReply` make a new one each time), so the length is
 * added to it rather than to one more copy.
 */
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | number>;
  readonly body: string;
}

/** Writes an answer with its length; returns its status for the log. */
function write(res: ServerResponse, reply: Answer): number {
  reply.headers['Content-Length'] = Buffer.byteLength(reply.body);
  res.writeHead(reply.status, reply.headers);
  res.end(reply.body);
  return reply.status;
}

function isActionTarget(target: string): boolean {
  return target === ACTION_PATH || (target.startsWith(ACTION_PATH) && target[ACTION_PATH.length] === '?');
}
