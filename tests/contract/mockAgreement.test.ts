import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ActionName,
  contract,
  identityOf,
  isSensitiveAction,
  PROTOCOL_HEADER,
  type Snapshot,
} from '@webbridge/contract';
import { createBridge } from '@webbridge/server';
import { afterAll, describe, expect, it } from 'vitest';
import { createEchoHost } from '../../examples/minimal-host/src/createEchoHost';
import { useMockBridge } from '../../web/src/mocks/useMockBridge';
import { ACTIONS } from './agreementActions';

/**
 * The web client's mocks agree with the host by construction: their MSW handlers hand every
 * request to `createBridge` over the embedding's in-memory host. What is left to prove, and what
 * fails if someone writes a mock answer by hand again: every route and every action of the
 * contract, sent as the page sends it (fetch, intercepted by msw/node), is answered by the real
 * bridge, and each action exactly as another host built from the same embedding helpers
 * answers it (examples/minimal-host, called without MSW).
 */
const mocks = useMockBridge({ accessCode: 'agreement', wordDelayMs: 1 });
const ORIGIN = 'http://mock.test';
const AUTH = { Authorization: 'Bearer agreement' };
const JSON_AUTH = { ...AUTH, 'Content-Type': 'application/json' };

type Fetch = (request: Request) => Promise<Response>;

/** The actions the mocks' scripted host answers beyond the embedding's chat-only defaults. */
const SCRIPTED: ReadonlySet<string> = new Set([
  'pushStatus',
  'subscribePush',
  'unsubscribePush',
  'branch',
  'editMessage',
  'regenerate',
]);
const throughMocks: Fetch = (request) => fetch(request);

const stateOf = async (send: Fetch): Promise<Snapshot> =>
  (await (await send(new Request(`${ORIGIN}${contract.state.path}`, { headers: AUTH }))).json()) as Snapshot;

/** Posts an action, with the session guard of `current` when the contract says it needs one. */
function act(
  current: Snapshot,
  action: Record<string, unknown> & { action: ActionName },
  send = throughMocks,
) {
  const guarded = { ...action, ...identityOf(current) };
  const body = isSensitiveAction(guarded as never) ? guarded : action;
  const init = { method: 'POST', headers: JSON_AUTH, body: JSON.stringify(body) };
  return send(new Request(`${ORIGIN}${contract.action.path}`, init));
}

/** What a client acts on: the status, and the action answered or the problem's code. */
async function outcome(response: Response): Promise<{ status: number; action?: string; code?: string }> {
  const body = (await response.json()) as { action?: string; code?: string };
  return response.ok
    ? { status: response.status, action: body.action ?? '' }
    : { status: response.status, code: body.code ?? '' };
}

describe('the web mocks are the real bridge', () => {
  // Another app built from the embedding's helpers, behind its own bridge, called directly.
  const uploadDir = mkdtempSync(join(tmpdir(), 'agreement-'));
  const echo = createEchoHost(1);
  const other = createBridge({ host: echo, accessCode: 'agreement', uploadDir, logLevel: 'silent' });
  const direct: Fetch = async (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.set('host', 'localhost');
    return other.app.fetch(
      new Request(`http://localhost${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        body: request.body,
        duplex: 'half',
      } as RequestInit),
    );
  };
  afterAll(async () => {
    echo.close();
    await other.stop();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('answers every route of the contract as the bridge does: its protocol header, a status the contract declares', async () => {
    mocks.start();
    for (const [name, route] of Object.entries(contract)) {
      // Without a code: every route answers at once (a public one, or a refusal), never a stream.
      const response = await fetch(`${ORIGIN}${route.path}`, { method: route.method });
      expect(response.headers.get(PROTOCOL_HEADER), name).not.toBeNull();
      expect(Object.keys(route.responses), name).toContain(String(response.status));
      await response.arrayBuffer();
    }
    // Outside the contract too: the bridge's own refusals, not a mock's.
    const unknown = await fetch(`${ORIGIN}/api/nothing`, { headers: AUTH });
    expect([unknown.status, ((await unknown.json()) as { code: string }).code]).toEqual([404, 'not_found']);
    const wrongCode = await fetch(`${ORIGIN}${contract.state.path}`, {
      headers: { Authorization: 'Bearer wrong' },
    });
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.headers.get('WWW-Authenticate')).toBe('Bearer');
  });

  it('refuses a stale session-sensitive action with 409 naming the identity the state shows (the bridge’s rule)', async () => {
    const bridge = mocks.start();
    const before = await stateOf(throughMocks);
    bridge.hostSwitch();
    const refused = await act(before, { action: 'send', text: 'to the old place' });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { code: string; current: unknown };
    expect(body.code).toBe('session_mismatch');
    expect(body.current).toEqual(identityOf(await stateOf(throughMocks)));
    expect(bridge.state().conversations.messages.map((m) => m.text)).not.toContain('to the old place');
  });

  for (const [name, body] of Object.entries(ACTIONS)) {
    it(`${name}: answered by the embedding's handler, as the other embedding host answers it`, async () => {
      mocks.start();
      const viaMocks = await outcome(
        await act(await stateOf(throughMocks), body(await stateOf(throughMocks))),
      );
      const viaOther = await outcome(await act(await stateOf(direct), body(await stateOf(direct)), direct));
      // Push state and branches are the mocks' script (web/src/mocks/scriptedActions.ts,
      // scriptedBranches.ts): answered, where an app that only chats refuses them.
      if (SCRIPTED.has(name)) expect(viaMocks).toEqual({ status: 200, action: name });
      else expect(viaMocks).toEqual(viaOther);
      // A result or the handler's own refusal, never a validation or server error.
      if (viaMocks.status !== 200)
        expect(['not_found', 'not_applicable', 'workspace_forbidden']).toContain(viaMocks.code);
    });
  }
});
