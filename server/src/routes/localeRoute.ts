import { contract } from '@webbridge/contract';
import type { Context } from 'hono';
import type { HostAdapter } from '../adapter';
import type { BridgeEnv } from '../env';
import { respond } from './respond';

/** GET and HEAD /api/locale (public): what the connection page needs, nothing of the state. */
export function localeRoute(host: HostAdapter) {
  return (c: Context<BridgeEnv>) => respond(c, contract.locale, { status: 200, body: host.locale() });
}
