import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/testController';
import { WorkspaceAuthoriser } from './WorkspaceAuthoriser';

function setup() {
  const base = fs.realpathSync(tempDir());
  const ws = path.join(base, 'ws');
  const evil = path.join(base, 'ws-evil');
  fs.mkdirSync(path.join(ws, 'project', 'src'), { recursive: true });
  fs.mkdirSync(evil);
  return { base, ws, evil, authoriser: new WorkspaceAuthoriser([ws]) };
}

const uri = (p: string) => pathToFileURL(p).href;

describe('WorkspaceAuthoriser', () => {
  it('accepts the root and folders below it, as file: URIs or absolute paths, canonically', () => {
    const { ws, authoriser } = setup();
    expect(authoriser.authorise(uri(ws))).toBe(uri(ws));
    expect(authoriser.authorise(uri(path.join(ws, 'project')))).toBe(uri(path.join(ws, 'project')));
    expect(authoriser.authorise(path.join(ws, 'project', 'src'))).toBe(uri(path.join(ws, 'project', 'src')));
    expect(authoriser.authorise(`${uri(path.join(ws, 'project'))}/`)).toBe(uri(path.join(ws, 'project')));
    expect(authoriser.authorise(`file://localhost${path.join(ws, 'project')}`)).toBe(
      uri(path.join(ws, 'project')),
    );
  });

  it('refuses traversal, plain or percent-encoded, even when it would land inside', () => {
    const { ws, authoriser } = setup();
    expect(authoriser.authorise(`${uri(ws)}/..`)).toBeUndefined();
    expect(authoriser.authorise(`${uri(ws)}/../ws/project`)).toBeUndefined();
    expect(authoriser.authorise(`${ws}/project/../../ws-evil`)).toBeUndefined();
    expect(authoriser.authorise(`${uri(ws)}/%2e%2e/ws-evil`)).toBeUndefined();
    expect(authoriser.authorise(`${uri(ws)}/%2E%2E/ws-evil`)).toBeUndefined();
    expect(authoriser.authorise(`${uri(ws)}/.%2e/ws-evil`)).toBeUndefined();
    expect(authoriser.authorise(`${uri(ws)}/%252e%252e/ws-evil`)).toBeUndefined();
    expect(authoriser.authorise(`${uri(ws)}%2F..%2Fws-evil`)).toBeUndefined();
    expect(authoriser.authorise(`${uri(ws)}/project%2Fsrc`)).toBeUndefined();
  });

  it('refuses a sibling folder that only shares a prefix with the root', () => {
    const { evil, authoriser } = setup();
    expect(authoriser.authorise(uri(evil))).toBeUndefined();
    expect(authoriser.authorise(evil)).toBeUndefined();
  });

  it('refuses symlinks that lead out of the root, and canonicalises those that stay inside', () => {
    const { ws, evil, authoriser } = setup();
    fs.symlinkSync(evil, path.join(ws, 'escape'));
    fs.symlinkSync(path.join(ws, 'project'), path.join(ws, 'alias'));
    expect(authoriser.authorise(uri(path.join(ws, 'escape')))).toBeUndefined();
    expect(authoriser.authorise(uri(path.join(ws, 'alias')))).toBe(uri(path.join(ws, 'project')));
  });

  it('refuses other schemes, relative paths, missing folders, files, hosts, queries and NUL', () => {
    const { ws, authoriser } = setup();
    fs.writeFileSync(path.join(ws, 'file.txt'), 'x');
    for (const bad of [
      `http://localhost${ws}`,
      `javascript:alert(1)//${ws}`,
      `data:text/plain,${ws}`,
      'ws/project',
      '',
      uri(path.join(ws, 'missing')),
      uri(path.join(ws, 'file.txt')),
      `file://evil.example${ws}`,
      `${uri(ws)}?x=1`,
      `${uri(ws)}#frag`,
      `${ws}\0/project`,
      `${uri(ws)}/%00`,
    ]) {
      expect(authoriser.authorise(bad), bad).toBeUndefined();
    }
  });

  it('accepts more than one root', () => {
    const { ws, base } = setup();
    const other = path.join(base, 'other');
    fs.mkdirSync(other);
    const authoriser = new WorkspaceAuthoriser([ws, other]);
    expect(authoriser.authorise(other)).toBe(uri(other));
    expect(authoriser.roots).toEqual([ws, other]);
  });
});
