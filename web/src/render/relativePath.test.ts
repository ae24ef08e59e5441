import { describe, expect, it } from 'vitest';
import { folderOf } from './folderOf';
import { relativePath } from './relativePath';

describe('relativePath', () => {
  it('cuts the project folder off a path below it, and nothing else', () => {
    expect(relativePath('/home/me/app/src/a.ts', '/home/me/app')).toBe('src/a.ts');
    expect(relativePath('/home/me/app/src/a.ts', '/home/me/app/')).toBe('src/a.ts');
    // A sibling folder whose name starts the same is not inside.
    expect(relativePath('/home/me/app2/a.ts', '/home/me/app')).toBeUndefined();
    expect(relativePath('/etc/hosts', '/home/me/app')).toBeUndefined();
    expect(relativePath('/home/me/app', '/home/me/app')).toBeUndefined();
    expect(relativePath('/home/me/app/a.ts', undefined)).toBeUndefined();
    expect(relativePath('/a.ts', '/')).toBeUndefined();
  });

  it('reads a workspace folder from its file: URI', () => {
    expect(folderOf('file:///home/me/my%20app/')).toBe('/home/me/my app');
    expect(folderOf('/plain')).toBe('/plain');
  });
});
