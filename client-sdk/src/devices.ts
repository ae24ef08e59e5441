import {
  contract,
  type DevicesResponse,
  devicesResponseSchema,
  forgetDeviceResponseSchema,
  type PairRequest,
  type PairResponse,
  pairResponseSchema,
} from '@webbridge/contract';
import { BridgeClientError } from './BridgeClientError';
import { errorFromFailure, errorFromResponse } from './errorFromResponse';
import { parseJsonSafely } from './safeJson';

/** Options of {@link createDeviceClient}. */
export interface DeviceClientOptions {
  /** Origin of the bridge, e.g. `location.origin`. */
  readonly baseUrl: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

/** Pairing and the paired devices of one bridge (POST /api/pair, GET /api/devices, forget). */
export interface DeviceClient {
  /**
   * Redeems a pairing token or the typed code for a device credential, which the page keeps and
   * presents instead of the code from then on. Throws {@link BridgeClientError}: 401
   * `pairing_token_spent`, `pairing_token_expired` or `unauthorized`, 429 `rate_limited`.
   */
  pair(request: PairRequest): Promise<PairResponse>;
  /** Every paired device and which one `secret` (a code or credential) belongs to. */
  list(secret: string): Promise<DevicesResponse>;
  /** Forgets a device (a view code or device may forget only itself). */
  forget(secret: string, deviceId: string): Promise<void>;
}

/**
 * The device routes of a bridge, apart from {@link createBridgeClient}: pairing happens before
 * there is anything to present, and the page asks for the list only when it is shown.
 *
 * @example
 * ```ts
 * const devices = createDeviceClient({ baseUrl: location.origin });
 * const { credential } = await devices.pair({ token, name: 'Chrome on Android' });
 * const client = createBridgeClient({ baseUrl: location.origin, accessCode: credential });
 * ```
 */
export function createDeviceClient(options: DeviceClientOptions): DeviceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function call<T>(
    path: string,
    init: RequestInit,
    schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } },
  ): Promise<T> {
    let response: Response;
    let text: string;
    try {
      response = await fetchFn(`${baseUrl}${path}`, init);
      text = await response.text();
    } catch (error) {
      throw errorFromFailure(error, undefined);
    }
    let body: unknown = text;
    try {
      body = parseJsonSafely(text);
    } catch {
      // Not JSON: the status decides below.
    }
    if (response.status !== 200) throw errorFromResponse(response.status, body, response.headers);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new BridgeClientError({ code: 'bad_response', status: 200, detail: 'unexpected answer' });
    }
    return parsed.data;
  }

  const json = (secret?: string) => ({
    'Content-Type': 'application/json',
    ...(secret === undefined ? {} : { Authorization: `Bearer ${secret}` }),
  });

  return {
    pair: (request) =>
      call(
        contract.pair.path,
        { method: 'POST', headers: json(), body: JSON.stringify(request) },
        pairResponseSchema,
      ),
    list: (secret) =>
      call(contract.devices.path, { headers: { Authorization: `Bearer ${secret}` } }, devicesResponseSchema),
    async forget(secret, deviceId) {
      await call(
        contract.forgetDevice.path,
        { method: 'POST', headers: json(secret), body: JSON.stringify({ deviceId }) },
        forgetDeviceResponseSchema,
      );
    },
  };
}
