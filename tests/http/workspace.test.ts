import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState, guardOf, postAction, problemOf } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';

describe('the workspace action', () => {
  let h: TestHost;
  let root: string;
  let outside: string;
  beforeAll(async () => {
    h = await startTestHost();
    root = join(h.dataDir, 'workspace');
    mkdirSync(join(root, 'inner'), { recursive: true });
    outside = mkdtempSync(join(tmpdir(), 'webbridge-outside-'));
    mkdirSync(`${root}-evil`, { recursive: true });
    symlinkSync(outside, join(root, 'escape'));
  });
  afterAll(() => h.close(true));

  const refused = (): [string, string][] => [
    ['a folder outside every root', pathToFileURL(outside).href],
    ['a traversal', `${pathToFileURL(root).href}/../..`],
    ['an encoded traversal', `${pathToFileURL(root).href}/%2e%2e/%2e%2e`],
    ['a symlink that leaves the root', pathToFileURL(join(root, 'escape')).href],
    ['a sibling sharing the prefix', pathToFileURL(`${root}-evil`).href],
    ['another scheme', 'http://127.0.0.1/etc'],
    ['a script URL', 'javascript:alert(1)'],
    ['a folder that does not exist', pathToFileURL(join(root, 'missing')).href],
    ['a file URL with a host', `file://evil.example${root}`],
  ];

  it('refuses every URI outside the authorised roots with 403 workspace_forbidden, changing nothing', async () => {
    for (const [what, uri] of refused()) {
      const before = await getState(h);
      const response = await postAction(h, { action: 'workspace', uri, ...guardOf(before) });
      expect(response.status, what).toBe(403);
      expect((await problemOf(response)).code, what).toBe('workspace_forbidden');
      const after = await getState(h);
      expect(after.projects.list, what).toEqual(before.projects.list);
      expect(after.sessionRevision, what).toBe(before.sessionRevision);
    }
  });

  it('accepts a folder below an authorised root and returns its canonical URI', async () => {
    const before = await getState(h);
    const response = await postAction(h, {
      action: 'workspace',
      uri: `${pathToFileURL(root).href}/./inner/`,
      ...guardOf(before),
    });
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as { result: { uri: string } };
    expect(result.uri).toBe(pathToFileURL(join(root, 'inner')).href);
    const after = await getState(h);
    expect(after.projects.list.find((p) => p.id === after.projectId)?.workspace.uri).toBe(result.uri);
  });
});
