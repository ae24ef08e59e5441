import { CLIENT_ADDRESS_HEADER, contract, type Locale } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import { clientAddress } from '../guards/rawHeaders';
import type { HostAdapter } from '../HostAdapter';
import { respondSerialised } from './respond';

/**
 * GET and HEAD /api/locale (public): what the connection page needs, nothing of the state.
 * The JSON is kept while the host hands out the same locale object. It names the client address
 * the host saw (CLIENT_ADDRESS_HEADER).
 */
export function localeRoute(host: HostAdapter) {
  let kept: { locale: Locale; json: string } | undefined;
  const checkHeaders = headerCheck(contract.locale);
  return (c: Context<BridgeEnv>) => {
    const head = headOf(c);
    checkHeaders(head);
    const locale = host.locale();
    if (kept?.locale !== locale) kept = { locale, json: JSON.stringify(locale) };
    const { json } = kept;
    // Who the host believes asked: behind a proxy, whether its forwarding counts (check-url).
    const seen = { [CLIENT_ADDRESS_HEADER]: clientAddress(head) };
    return respondSerialised(c, contract.locale, { status: 200, body: locale }, () => json, seen);
  };
}
