import { createBridgeClient } from '@webbridge/client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

describe('a heartbeat interval the SDK was not told about', () => {
  let h: TestHost;
  beforeAll(async () => {
    // Twelve times what the client assumes: a fixed client timeout would reconnect every 2 × 50 ms.
    // (300 ms, the first choice, left a 675 ms timeout that a loaded machine's stall could pass.)
    h = await startTestHost({ heartbeatMs: 600 });
  });
  afterAll(() => h.close(true));

  it('an idle SDK client keeps its one stream, following the interval the server names', async () => {
    const requests: string[] = [];
    const client = createBridgeClient({
      baseUrl: h.url,
      accessCode: TEST_CODE,
      fetch: (input, init) => {
        requests.push(String(input));
        return fetch(input, init);
      },
    });
    const statuses: string[] = [];
    client.store.subscribe((s, p) => {
      if (s.status !== p.status) statuses.push(s.status);
    });
    const connection = client.connect({ heartbeatMs: 50, backoff: { baseMs: 10, maxMs: 20 } });
    try {
      await waitFor(() => (client.store.getState().status === 'live' ? true : undefined));
      // Four server intervals of idleness: three heartbeats, no event in between.
      await new Promise((resolve) => setTimeout(resolve, 2_400));
      expect(requests.filter((url) => url.includes('/api/events'))).toHaveLength(1);
      expect(statuses).not.toContain('reconnecting');
      expect(h.host.bridge.subscriberCount).toBe(1);
    } finally {
      connection.close();
      await connection.done;
    }
  });
});
