import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState, guardOf, postAction, problemOf, waitFor } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// Rules of the seed that held but that no test proved (a point-by-point audit): instanceId is
// optional on a session-sensitive action and checked only when supplied; media ids, codes,
// uploads and workspaces are independent credentials, none implying another.

let h: TestHost;
beforeAll(async () => {
  h = await startTestHost();
});
afterAll(() => h.close(true));

/** Uploads `body` as `name`; the attachment's id and a media id for it. */
async function upload(name: string, body: string): Promise<{ attachmentId: string; mediaId: string }> {
  const response = await fetch(`${h.url}/api/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/plain' },
    body,
  });
  expect(response.status).toBe(201);
  const { attachment } = (await response.json()) as { attachment: { id: string } };
  const pending = (await getState(h)).conversations.pending.find((a) => a.id === attachment.id);
  return { attachmentId: attachment.id, mediaId: pending?.media.id ?? '' };
}

describe('instanceId on a session-sensitive action', () => {
  it('may be left out: the action is checked on the other three fields and applied', async () => {
    const before = await getState(h);
    const { instanceId: _left, ...withoutInstance } = guardOf(before);
    const response = await postAction(h, { action: 'send', text: 'no instance id', ...withoutInstance });
    expect(response.status).toBe(200);
    await waitFor(async () =>
      (await getState(h)).conversations.messages.some((m) => m.role === 'user' && m.text === 'no instance id')
        ? true
        : undefined,
    );
  });

  it('when given and wrong, is refused with 409 session_mismatch and nothing happens', async () => {
    const before = await getState(h);
    const response = await postAction(h, {
      action: 'send',
      text: 'wrong instance id',
      ...guardOf(before),
      instanceId: 'another-run-of-the-host',
    });
    expect(response.status).toBe(409);
    const problem = await problemOf(response);
    expect(problem.code).toBe('session_mismatch');
    expect(problem.current?.instanceId).toBe(before.instanceId);
    const after = await getState(h);
    expect(after.conversations.messages.some((m) => m.text === 'wrong instance id')).toBe(false);
    expect(after.sessionRevision).toBe(before.sessionRevision);
  });
});

describe('media ids, codes, uploads and workspaces are independent', () => {
  it('a media id is no Bearer code anywhere', async () => {
    const { mediaId } = await upload('note.txt', 'a note');
    expect(mediaId).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const bearer = { Authorization: `Bearer ${mediaId}` };
    const answers = [
      await fetch(`${h.url}/api/state`, { headers: bearer }),
      await fetch(`${h.url}/api/events`, { headers: bearer }),
      await fetch(`${h.url}/api/action`, {
        method: 'POST',
        headers: { ...bearer, 'Content-Type': 'application/json' },
        body: '{"action":"newConversation"}',
      }),
      await fetch(`${h.url}/api/upload?name=x.txt`, {
        method: 'POST',
        headers: { ...bearer, 'Content-Type': 'text/plain' },
        body: 'x',
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect((await problemOf(answer)).code).toBe('unauthorized');
    }
    // The id itself still opens its file: refusing it as a code revoked nothing.
    expect((await fetch(`${h.url}/api/media?id=${mediaId}`)).status).toBe(200);
  });

  it('a code opens no media without an id, nor as an id', async () => {
    await upload('other.txt', 'other');
    const withCode = { Authorization: `Bearer ${TEST_CODE}` };
    for (const target of ['/api/media', '/api/media?id=', `/api/media?id=${TEST_CODE}`]) {
      const answer = await fetch(`${h.url}${target}`, { headers: withCode });
      expect({ target, status: answer.status }).toEqual({ target, status: 404 });
      expect((await problemOf(answer)).code).toBe('not_found');
    }
  });

  it('a workspace URI cannot point into the upload store, however it is spelt', async () => {
    const { attachmentId } = await upload('planted.txt', 'planted');
    const uploads = join(h.dataDir, 'uploads');
    const workspace = join(h.dataDir, 'workspace');
    const stored = h.host.controller.attachments.file(attachmentId)?.path ?? '';
    expect(stored.startsWith(uploads)).toBe(true);
    const uris = [
      pathToFileURL(uploads).href,
      `${pathToFileURL(workspace).href}/../uploads`,
      `${pathToFileURL(workspace).href}/%2e%2e/uploads`,
      pathToFileURL(stored).href,
    ];
    for (const uri of uris) {
      const before = await getState(h);
      const response = await postAction(h, { action: 'workspace', uri, ...guardOf(before) });
      expect({ uri, status: response.status }).toEqual({ uri, status: 403 });
      expect((await problemOf(response)).code).toBe('workspace_forbidden');
      expect((await getState(h)).projects.list).toEqual(before.projects.list);
    }
  });

  it('an upload grants no workspace access: its name cannot place it in the workspace', async () => {
    const workspace = join(h.dataDir, 'workspace');
    const before = readdirSync(workspace, { recursive: true });
    for (const name of ['../workspace/planted.txt', '..%2fworkspace%2fplanted.txt', '/etc/planted.txt']) {
      await upload(name, 'planted');
    }
    expect(readdirSync(workspace, { recursive: true })).toEqual(before);
    // Stored under random ids in the upload store only.
    for (const file of readdirSync(join(h.dataDir, 'uploads'))) expect(file).not.toContain('planted');
  });
});
