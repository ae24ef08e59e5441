import { type Device, pairRequestSchema } from '@webbridge/contract';
import { mockJson, mockProblem } from './mockProblem';

/**
 * The mock bridge's paired devices, so `pnpm dev:web` can pair, list and forget. Any code pairs
 * but `wrong`; the token `spent` and `expired` answer as a real host does. Credentials are
 * `<id>.mock` (the mock accepts any Bearer but `wrong` and `wait`).
 */
export function createMockDevices() {
  const devices: Device[] = [];
  let next = 1;
  const current = (request: Request) =>
    /^Bearer\s+([^.\s]+)\.mock$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? null;

  return {
    async pair(request: Request): Promise<Response> {
      const parsed = pairRequestSchema.safeParse(await request.json().catch(() => undefined));
      if (!parsed.success) return mockProblem('invalid_request', 'Send { token, name } or { code, name }.');
      const body = parsed.data;
      if ('token' in body && body.token === 'spent') {
        return mockProblem('pairing_token_spent', 'This pairing link was already used.');
      }
      if ('token' in body && body.token === 'expired') {
        return mockProblem('pairing_token_expired', 'This pairing link has expired.');
      }
      if ('code' in body && body.code === 'wrong')
        return mockProblem('unauthorized', 'The access code is not valid.');
      const now = Date.now();
      const device: Device = {
        id: `d${next++}`,
        name: body.name,
        role: 'control',
        firstSeen: now,
        lastSeen: now,
      };
      devices.push(device);
      return mockJson({ credential: `${device.id}.mock`, device });
    },
    list(request: Request): Response {
      return mockJson({ devices, current: current(request) });
    },
    async forget(request: Request): Promise<Response> {
      const { deviceId } = ((await request.json().catch(() => ({}))) ?? {}) as { deviceId?: unknown };
      const index = devices.findIndex((device) => device.id === deviceId);
      if (index === -1) return mockProblem('not_found', 'There is no paired device with that id.');
      devices.splice(index, 1);
      return mockJson({ forgotten: deviceId });
    },
  };
}
