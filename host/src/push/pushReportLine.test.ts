import { describe, expect, it } from 'vitest';
import { pushReportLine } from './pushReportLine';

describe('pushReportLine', () => {
  it('says nothing for a push that arrived or was stale, and names device and status otherwise', () => {
    expect(
      pushReportLine({ deviceId: 'd1', attempts: 1, result: { kind: 'sent', status: 201 } }),
    ).toBeUndefined();
    expect(pushReportLine({ deviceId: 'd1', attempts: 0, result: { kind: 'dropped' } })).toBeUndefined();
    expect(pushReportLine({ deviceId: 'd1', attempts: 1, result: { kind: 'gone', status: 410 } })).toBe(
      'push to device d1: its push service says the subscription is gone (410); removed',
    );
    expect(
      pushReportLine({
        deviceId: 'd2',
        attempts: 7,
        result: { kind: 'retry', status: null, reason: 'timed out' },
      }),
    ).toBe('push to device d2 given up after 7 tries: timed out');
    expect(
      pushReportLine({
        deviceId: 'd3',
        attempts: 1,
        result: { kind: 'refused', status: 301, reason: 'answered 301' },
      }),
    ).toBe('push to device d3 refused: answered 301');
  });
});
