import { describe, expect, it } from 'vitest';
import { describeError } from './describeError';

describe('describeError', () => {
  it('keeps the name and message but never a path', () => {
    const error = new Error("ENOENT: no such file or directory, open '/home/me/.webbridge/uploads/abc'");
    expect(describeError(error)).toEqual({
      name: 'Error',
      message: "ENOENT: no such file or directory, open '<path>'",
    });
    expect(describeError(new TypeError('x is not a function'))).toEqual({
      name: 'TypeError',
      message: 'x is not a function',
    });
    expect(describeError('thrown string')).toEqual({ name: 'unknown', message: '' });
  });
});
