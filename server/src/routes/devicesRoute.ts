import { contract, ProtocolError } from '@webbridge/contract';
import type { Context } from 'hono';
import type { Devices } from '../devices/Devices';
import type { BridgeEnv } from '../env';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import { bodyOf, contractBody } from './contractBody';
import { respond } from './respond';

/**
 * GET /api/devices: every paired device, and which one is asking (null for a code). A watching
 * device or the view code sees no other device's last-seen time (`Devices.listFor`).
 */
export function devicesRoute(devices: Devices) {
  const checkHeaders = headerCheck(contract.devices);
  return (c: Context<BridgeEnv>) => {
    checkHeaders(headOf(c));
    const current = c.get('device')?.id ?? null;
    const body = { devices: devices.listFor(c.get('access'), current), current };
    return respond(c, contract.devices, { status: 200, body });
  };
}

/**
 * POST /api/devices/forget: forgets a device through `forget` (which also ends its streams and
 * revokes the media ids issued to it, no one else's). The access code and control devices may forget any device; a view code
 * or view device only itself (Disconnect), anything else is 403 `view_only`. Unknown: 404.
 */
export function forgetDeviceRoute(forget: (id: string) => boolean) {
  const checkHeaders = headerCheck(contract.forgetDevice);
  // An id is a few dozen bytes.
  const body = contractBody(contract.forgetDevice.body, { max: 1024, detail: 'Send { deviceId }.' });
  return async (c: Context<BridgeEnv>) => {
    const head = headOf(c);
    checkHeaders(head);
    const { deviceId } = await body(head, bodyOf(c));
    if (c.get('access') !== 'control' && c.get('device')?.id !== deviceId) {
      throw new ProtocolError('view_only', 'A watching device may forget only itself.');
    }
    if (!forget(deviceId)) throw new ProtocolError('not_found', 'There is no paired device with that id.');
    return respond(c, contract.forgetDevice, { status: 200, body: { forgotten: deviceId } });
  };
}
