import { startHost } from '@webbridge/host';
import { TEST_CODE, type TestHost } from '../support/testHost';

/**
 * Starts a new run of the host on the data directory and port of a closed test host: what a
 * user sees when the phone app restarts. startTestHost always picks a free port, so a client
 * that must reconnect by itself to the same URL needs this.
 */
export async function restartHost(previous: TestHost): Promise<TestHost> {
  await previous.close();
  const host = await startHost({
    dataDir: previous.dataDir,
    port: previous.port,
    hostname: '127.0.0.1',
    accessCode: TEST_CODE,
    echoDelayMs: 5,
    logLevel: 'silent',
    staticDir: null,
    tuning: { authThrottle: { freeFailures: 1000 } },
  });
  let closed = false;
  return {
    url: previous.url,
    port: previous.port,
    dataDir: previous.dataDir,
    host,
    auth: previous.auth,
    async close(removeData = false) {
      if (!closed) {
        closed = true;
        await host.close();
      }
      if (removeData) await previous.close(true);
    },
  };
}
