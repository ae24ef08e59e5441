import { describe, expect, it } from 'vitest';
import { isWildcard, ownHostnames, parserRefusal } from './nodeListener';

describe('parserRefusal', () => {
  it("maps Node's parser codes to the protocol's error codes", () => {
    expect(parserRefusal('HPE_HEADER_OVERFLOW').status).toBe(431);
    expect(parserRefusal('ERR_HTTP_REQUEST_TIMEOUT').code).toBe('request_timeout');
    expect(parserRefusal('HPE_UNEXPECTED_CONTENT_LENGTH').code).toBe('duplicate_header');
    expect(parserRefusal('HPE_INVALID_TRANSFER_ENCODING').status).toBe(411);
    expect(parserRefusal('HPE_INVALID_METHOD').code).toBe('invalid_request');
    expect(parserRefusal(undefined).status).toBe(400);
  });
});

describe('ownHostnames', () => {
  it('is the bound address plus loopback names, or every interface for a wildcard', () => {
    expect([...ownHostnames('127.0.0.1')].sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect(ownHostnames('192.168.7.9').has('192.168.7.9')).toBe(true);
    expect(ownHostnames('::1').has('[::1]')).toBe(true);
    const all = ownHostnames('0.0.0.0');
    expect(all.has('127.0.0.1')).toBe(true);
    expect(all.has('evil.example')).toBe(false);
    expect(isWildcard('0.0.0.0') && isWildcard('::') && !isWildcard('127.0.0.1')).toBe(true);
  });
});
