import { describe, expect, it } from 'vitest';
import { AuthThrottle } from './AuthThrottle';
import { throttleKey } from './throttleKey';

describe('throttleKey', () => {
  it('keys one IPv6 /64 once, however its address is written', () => {
    const key = throttleKey('2001:db8::1');
    expect(throttleKey('2001:db8:0:0::2')).toBe(key);
    expect(throttleKey('2001:0db8:0000:0000:aaaa:bbbb:cccc:dddd')).toBe(key);
    expect(throttleKey('2001:DB8::ffff')).toBe(key);
    expect(throttleKey('2001:db8:0:0:1::')).toBe(key);
    expect(key).toBe('2001:0db8:0000:0000::/64');
    expect(throttleKey('2001:db8:0:1::1')).not.toBe(key);
  });

  it('keys a link-local client by its zone and its whole address', () => {
    expect(throttleKey('fe80::1%eth0')).not.toBe(throttleKey('fe80::2%eth0'));
    expect(throttleKey('fe80::1%eth0')).not.toBe(throttleKey('fe80::1%wlan0'));
    expect(throttleKey('fe80::1%eth0')).toBe(throttleKey('FE80:0:0:0:0:0:0:1%eth0'));
    expect(throttleKey('fe80::1%eth0')).toBe('fe80:0000:0000:0000:0000:0000:0000:0001%eth0');
  });

  it('keys an IPv4-mapped IPv6 address as the IPv4 address, in either spelling', () => {
    expect(throttleKey('::ffff:192.168.1.20')).toBe('192.168.1.20');
    expect(throttleKey('::ffff:c0a8:114')).toBe('192.168.1.20');
    expect(throttleKey('0:0:0:0:0:ffff:c0a8:0114')).toBe('192.168.1.20');
    expect(throttleKey('::ffff:7f00:1')).toBe('loopback');
  });

  it('keeps what it always did: loopback together, IPv4 by address', () => {
    expect(throttleKey('127.0.0.1')).toBe('loopback');
    expect(throttleKey('127.9.9.9')).toBe('loopback');
    expect(throttleKey('::1')).toBe('loopback');
    expect(throttleKey('0:0:0:0:0:0:0:1')).toBe('loopback');
    expect(throttleKey('192.168.1.20')).toBe('192.168.1.20');
    expect(throttleKey('local')).toBe('local');
  });

  it('lets one link-local neighbour lock itself out, not the others', () => {
    const throttle = new AuthThrottle({ freeFailures: 2 });
    for (let i = 0; i < 3; i++) throttle.failure(throttleKey('fe80::bad%eth0'));
    expect(throttle.retryAfter(throttleKey('fe80::bad%eth0'))).toBeGreaterThan(0);
    expect(throttle.retryAfter(throttleKey('fe80::900d%eth0'))).toBe(0);
  });

  it('locks a whole /64 however the attacker spells its addresses', () => {
    const throttle = new AuthThrottle({ freeFailures: 2 });
    for (const address of ['2001:db8:5::1', '2001:db8:5:0::2', '2001:db8:5:0:0::3']) {
      throttle.failure(throttleKey(address));
    }
    expect(throttle.retryAfter(throttleKey('2001:db8:5::9'))).toBeGreaterThan(0);
  });
});
