import { describe, expect, it } from 'vitest';
import { AuthThrottle } from './AuthThrottle';
import { bearerToken, sameSecret } from './authGuard';
import { hostnameOf } from './hostGuard';

describe('bearerToken', () => {
  it('reads only the Bearer scheme', () => {
    expect(bearerToken('Bearer abc-123')).toBe('abc-123');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a, Bearer b')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('sameSecret', () => {
  it('compares secrets of any length', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
  });
});

describe('hostnameOf', () => {
  it('drops the port and keeps IPv6 brackets', () => {
    expect(hostnameOf('LocalHost:7878')).toBe('localhost');
    expect(hostnameOf('[::1]:80')).toBe('[::1]');
    expect(hostnameOf('192.168.1.4')).toBe('192.168.1.4');
  });
});

describe('AuthThrottle', () => {
  it('locks a client out after its free failures, doubling, and a success resets it', () => {
    let now = 0;
    const throttle = new AuthThrottle({ freeFailures: 2, baseDelayMs: 1000, maxDelayMs: 3000 }, () => now);
    throttle.failure('a');
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(0);
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(1);
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(2);
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(3);
    expect(throttle.retryAfter('b')).toBe(0);
    now = 10_000;
    expect(throttle.retryAfter('a')).toBe(0);
    throttle.success('a');
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(0);
  });
});
