import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState } from '../support/api';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// Node kept the first ~1,000 header lines and dropped the rest unseen, so a
// `Transfer-Encoding: chunked` after 1,100 filler lines passed the header guard (which refuses
// chunked bodies) and the action in the chunked body was carried out.
describe('regression: header lines past what the guards can see', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost();
  });
  afterAll(() => h.close(true));

  it('a chunked action hidden behind 1,100 filler lines is 431 and is not carried out', async () => {
    const before = await getState(h);
    const body = JSON.stringify({ action: 'newConversation', title: 'smuggled' });
    const response = await rawRequest(
      h.port,
      [
        'POST /api/action HTTP/1.1',
        `Host: 127.0.0.1:${h.port}`,
        'Connection: close',
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Type: application/json',
        // Short lines: the padding stays under the 16 KiB header size limit.
        ...Array.from({ length: 1100 }, () => 'X:1'),
        'Transfer-Encoding: chunked',
      ],
      `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect((JSON.parse(response.body) as { code: string }).code).toBe('header_too_large');
    const after = await getState(h);
    expect(after.conversations.list.map((c) => c.title)).not.toContain('smuggled');
    expect(after.conversations.list.length).toBe(before.conversations.list.length);
  });
});
