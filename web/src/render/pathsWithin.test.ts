import { describe, expect, it } from 'vitest';
import { pathsWithin } from './pathsWithin';

describe('pathsWithin', () => {
  it('writes the paths below the project folder from there, in free text, and nothing else', () => {
    expect(pathsWithin('Edit /home/me/app/src/a.ts', '/home/me/app')).toBe('Edit src/a.ts');
    expect(pathsWithin('/home/me/app/a.ts → `/home/me/app/b.ts`', '/home/me/app/')).toBe('a.ts → `b.ts`');
    // A sibling whose name starts the same, a path inside another one, the folder itself.
    expect(pathsWithin('Read /home/me/apple/x.ts', '/home/me/app')).toBe('Read /home/me/apple/x.ts');
    expect(pathsWithin('Read /mnt/home/me/app/x.ts', '/home/me/app')).toBe('Read /mnt/home/me/app/x.ts');
    expect(pathsWithin('List /home/me/app/ now', '/home/me/app')).toBe('List /home/me/app/ now');
    expect(pathsWithin('Edit /home/me/app/a.ts', undefined)).toBe('Edit /home/me/app/a.ts');
    expect(pathsWithin('Edit /a.ts', '/')).toBe('Edit /a.ts');
  });
});
