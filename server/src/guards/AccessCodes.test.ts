import { describe, expect, it } from 'vitest';
import { AccessCodes } from './AccessCodes';

describe('AccessCodes', () => {
  it('tells control from view and refuses anything else', () => {
    const codes = new AccessCodes('control-code-1', 'view-code-22');
    expect(codes.levelOf('control-code-1')).toBe('control');
    expect(codes.levelOf('view-code-22')).toBe('view');
    expect(codes.levelOf('view-code-2')).toBeUndefined();
    codes.setView(undefined);
    expect(codes.levelOf('view-code-22')).toBeUndefined();
  });

  it('never lets a view code equal the access code (it would grant control)', () => {
    expect(() => new AccessCodes('same-code-123', 'same-code-123')).toThrow(/differ/);
    const codes = new AccessCodes('control-code-1', 'view-code-22');
    expect(() => codes.setView('control-code-1')).toThrow(/differ/);
    expect(() => codes.setControl('view-code-22')).toThrow(/differ/);
    expect(codes.levelOf('view-code-22')).toBe('view');
    expect(codes.levelOf('control-code-1')).toBe('control');
  });

  it('compares whole codes: no padding, prefix, length or byte trick matches (slot and digest alike)', () => {
    const short = new AccessCodes('abc-code-123', 'view-é-code');
    // The slot is zero-padded: a code plus NULs must still be another code.
    expect(short.levelOf('abc-code-123\0')).toBeUndefined();
    expect(short.levelOf('abc-code-12')).toBeUndefined();
    expect(short.levelOf('abc-code-1234')).toBeUndefined();
    expect(short.levelOf('')).toBeUndefined();
    // Compared as UTF-8: the same letters in another encoding are another code.
    expect(short.levelOf('view-é-code')).toBe('view');
    expect(short.levelOf('view-e\u0301-code')).toBeUndefined();
    // Exactly the slot's width, one byte under and one over (the digest's side).
    const at = 'c'.repeat(64);
    const codes = new AccessCodes(at, `${'v'.repeat(64)}w`);
    expect(codes.levelOf(at)).toBe('control');
    expect(codes.levelOf(at.slice(1))).toBeUndefined();
    expect(codes.levelOf(`${at}c`)).toBeUndefined();
    expect(codes.levelOf(`${'v'.repeat(64)}w`)).toBe('view');
    expect(codes.levelOf('v'.repeat(64))).toBeUndefined();
    expect(codes.levelOf(`${'v'.repeat(64)}x`)).toBeUndefined();
    // A long code set at run time, and a presented code of many bytes in few characters.
    codes.setControl(`long-${'€'.repeat(30)}`);
    expect(codes.levelOf(`long-${'€'.repeat(30)}`)).toBe('control');
    expect(codes.levelOf(`long-${'€'.repeat(20)}`)).toBeUndefined();
    expect(codes.levelOf(at)).toBeUndefined();
  });
});
