import { join } from 'node:path';
import { createBridge, type HostAdapter } from '@webbridge/server';
import type { TestHost } from './testHost';

/** The access code of every bridge made by {@link anotherBridge}. */
const ANOTHER_BRIDGE_CODE = 'second-bridge-code';

/**
 * Builds and starts one more bridge on a test host's controller, as an app does when it stops
 * sharing and shares again in the same run. `adapter` defaults to the host's own; pass a new
 * one to model an app that builds its adapter afresh.
 */
export async function anotherBridge(h: TestHost, adapter: HostAdapter = h.host.adapter) {
  const bridge = createBridge({
    host: adapter,
    memory: h.host.memory,
    accessCode: ANOTHER_BRIDGE_CODE,
    uploadDir: join(h.dataDir, 'uploads'),
  });
  const url = (await bridge.listen({ port: 0, hostname: '127.0.0.1' })).urls[0]!;
  return {
    url,
    /** Headers with this bridge's code (and JSON content type). */
    auth: (extra: Record<string, string> = {}) => ({
      Authorization: `Bearer ${ANOTHER_BRIDGE_CODE}`,
      'Content-Type': 'application/json',
      ...extra,
    }),
    stop: () => bridge.stop(),
  };
}
