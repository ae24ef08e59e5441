import type { PushReport } from './PushQueue';

/**
 * A log line for a push that did not arrive, or undefined for one that did (or was dropped as
 * stale): the device's id and what the push service said. Never a payload, a token, or the
 * endpoint (whose path identifies the subscription at the push service).
 */
export function pushReportLine(report: PushReport): string | undefined {
  const { result, deviceId, attempts } = report;
  switch (result.kind) {
    case 'sent':
    case 'dropped':
      return undefined;
    case 'gone':
      return `push to device ${deviceId}: its push service says the subscription is gone (${result.status}); removed`;
    case 'retry':
      return `push to device ${deviceId} given up after ${attempts} tries: ${result.reason}`;
    case 'refused':
      return `push to device ${deviceId} refused: ${result.reason}`;
    default: {
      const never: never = result;
      return never;
    }
  }
}
