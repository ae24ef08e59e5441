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
});
