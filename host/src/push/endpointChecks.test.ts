import { describe, expect, it } from 'vitest';
import { checkEndpoint } from './checkEndpoint';
import { isPublicAddress } from './isPublicAddress';
import { publicLookup, resolvePublic } from './resolvePublic';

describe('push endpoints must be public https: URLs (SSRF)', () => {
  it('tells public addresses from loopback, private, link-local, CGNAT, metadata and mapped ones', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '142.250.74.10'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses the addresses an outside review got through, each an IPv6 form outside public unicast', () => {
    for (const address of [
      // IPv4-compatible (deprecated): ::127.0.0.1
      '::7f00:1',
      // IPv4-translated (RFC 6145, SIIT): ::ffff:0:127.0.0.1
      '::ffff:0:7f00:1',
      // Segment routing SIDs (RFC 9602), outside 2000::/3
      '5f00::1',
      // Documentation (RFC 9637) inside 2000::/3
      '3fff::1',
      '3fff:fff::1',
      '2001:db8::1',
      // 2001::/23: Teredo (embeds an obfuscated IPv4 address), benchmarking, ORCHIDv2, and the rest
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:2::1',
      '2001:20::1',
      '2001:1ff::1',
      // 6to4 embeds an IPv4 address, a private one included
      '2002:c0a8:101::1',
      '2002:808:808::1',
      // NAT64 local-use prefix, and the well-known prefix carrying private or loopback IPv4
      '64:ff9b:1::a00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::c0a8:101',
      // Anything outside 2000::/3 that no block lists yet
      '4000::1',
      'e000::1',
      '100::1',
    ])
      expect(isPublicAddress(address), address).toBe(false);
    // Public unicast stays public, also as NAT64 of a public IPv4 (an IPv6-only host behind DNS64).
    for (const address of [
      '2a00:1450:4001:82b::200a',
      '2600:1f18::1',
      '2001:4860:4860::8888',
      '64:ff9b::808:808',
    ])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it('refuses every special-purpose IPv4 range, not only the private ones', () => {
    for (const address of [
      '192.0.0.8',
      '192.0.2.1',
      '192.88.99.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '240.0.0.1',
      '192.31.196.1',
      '192.52.193.1',
      '192.175.48.1',
      '::ffff:192.168.0.1',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses an endpoint on any port but 443 unless the host allows that port', () => {
    for (const endpoint of [
      'https://8.8.8.8:6379/x',
      'https://push.example.com:8443/x',
      'https://push.example.com:80/x',
    ])
      expect(() => checkEndpoint(endpoint), endpoint).toThrow(
        expect.objectContaining({ status: 400, message: expect.stringMatching(/port .* only 443/) }),
      );
    expect(checkEndpoint('https://push.example.com:443/x').port).toBe('');
    expect(checkEndpoint('https://push.example.com:8443/x', { ports: [443, 8443] }).port).toBe('8443');
    expect(() => checkEndpoint('https://push.example.com:6379/x', { ports: [443, 8443] })).toThrow(
      /port 6379.*443 or 8443/,
    );
  });

  it('refuses the IPv6 literals of the review as endpoints too', () => {
    for (const endpoint of [
      'https://[::7f00:1]/x',
      'https://[::ffff:0:7f00:1]/x',
      'https://[5f00::1]/x',
      'https://[3fff::1]/x',
    ])
      expect(() => checkEndpoint(endpoint), endpoint).toThrow(/not a public address/);
  });

  it('refuses what is not https, carries credentials, or names a local place, each said in the detail', () => {
    const refused: [string, RegExp][] = [
      ['http://push.example.com/x', /must use https:, not http:/],
      ['ftp://push.example.com/x', /must use https:/],
      ['not a url', /is not a URL/],
      ['https://user:pw@push.example.com/x', /user name or password/],
      ['https://127.0.0.1/x', /127\.0\.0\.1, which is not a public address/],
      ['https://[::1]/x', /::1, which is not a public address/],
      ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254/],
      ['https://10.0.0.8:8443/x', /10\.0\.0\.8/],
      ['https://localhost/x', /localhost, a local name/],
      ['https://printer.local/x', /a local name/],
      ['https://metadata.google.internal/x', /a local name/],
      ['https://router/x', /router, which is not a public name/],
    ];
    for (const [endpoint, detail] of refused) {
      expect(() => checkEndpoint(endpoint), endpoint).toThrow(
        expect.objectContaining({
          code: 'invalid_request',
          status: 400,
          message: expect.stringMatching(detail),
        }),
      );
    }
    expect(checkEndpoint('https://fcm.googleapis.com/fcm/send/abc').hostname).toBe('fcm.googleapis.com');
    expect(checkEndpoint('https://93.184.216.34/x').hostname).toBe('93.184.216.34');
  });

  it('refuses a name that resolves to a private address, even beside public ones', async () => {
    const resolver = (answers: string[]) => async () =>
      answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    await expect(resolvePublic('push.example.com', resolver(['93.184.216.34']))).resolves.toHaveLength(1);
    await expect(
      resolvePublic('rebind.example.com', resolver(['93.184.216.34', '192.168.0.1'])),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('resolves to 192.168.0.1, not a public address'),
    });
    await expect(resolvePublic('meta.example.com', resolver(['169.254.169.254']))).rejects.toMatchObject({
      status: 400,
    });
    await expect(resolvePublic('none.example.com', resolver([]))).rejects.toMatchObject({
      message: expect.stringContaining('does not resolve'),
    });
  });

  it('lets loopback through only under the test-only policy, never by default', async () => {
    expect(() => checkEndpoint('http://127.0.0.1:8090/notify/x')).toThrow(/https/);
    const policy = { unsafeAllowLoopbackForTests: true };
    expect(checkEndpoint('http://127.0.0.1:8090/notify/x', policy).port).toBe('8090');
    // Still only loopback: the LAN stays refused under the test policy.
    expect(() => checkEndpoint('http://192.168.1.2/notify/x', policy)).toThrow(/https/);
    expect(() => checkEndpoint('https://192.168.1.2/notify/x', policy)).toThrow(/not a public address/);
    await expect(resolvePublic('127.0.0.1', undefined, policy)).resolves.toHaveLength(1);
    await expect(resolvePublic('127.0.0.1')).rejects.toMatchObject({ status: 400 });
  });

  it("refuses on the push's own socket a name whose answer turned private after it was checked (rebinding)", async () => {
    let answer = '93.184.216.34';
    const lookup = publicLookup(async () => [{ address: answer, family: 4 }]);
    const resolve = () =>
      new Promise<{ error: Error | null; address: string }>((done) =>
        lookup('push.example.com', { family: 0 }, (error, address) =>
          done({ error, address: String(address) }),
        ),
      );
    await expect(resolve()).resolves.toEqual({ error: null, address: '93.184.216.34' });
    answer = '10.0.0.5';
    const refused = await resolve();
    expect(refused.error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('10.0.0.5'),
    });
  });
});
