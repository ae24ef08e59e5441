import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Action, type PushPayload, pushPayloadSchema } from '@webbridge/contract';
import type { ActionOrigin } from '@webbridge/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import { edit, say, turn, update } from '../support/acp/fakeSteps';
import { act, getState, guardOf, waitFor } from '../support/api';
import {
  type LocalPushService,
  type LocalSubscription,
  startLocalPushService,
} from '../support/localPushService';
import { startTestHost, type TestHost } from '../support/testHost';

/**
 * An ACP agent's permission request is an approval like any other: pushed to every subscribed
 * device with Allow/Deny, the notification's Allow picks the agent's allow-once option, and
 * the answer names the device it came from.
 */

const pixel: ActionOrigin = { device: { id: 'dev-pixel', name: 'Pixel 7' } };
const ipad: ActionOrigin = { device: { id: 'dev-ipad', name: 'iPad' } };

let h: TestHost;
let service: LocalPushService;
let file: string;
let logFile: string;
/** A command line with a credential in it: agents name a shell call by its command. */
const SECRET = 'sk-live-4417-never-on-a-lock-screen';
const COMMAND = `curl -H 'Authorization: Bearer ${SECRET}' https://deploy.example/run`;

beforeAll(async () => {
  service = await startLocalPushService();
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-push-'));
  mkdirSync(join(dataDir, 'workspace'), { recursive: true });
  file = join(realpathSync(join(dataDir, 'workspace')), 'plan.md');
  logFile = join(dataDir, 'fake-agent.log');
  const command = fakeAgentCommand({
    logFile,
    turns: [
      turn(...edit({ path: file, newText: 'the plan\n' }), say('Planned.')),
      // A turn that ends on its tool call, with nothing said after it.
      turn(...edit({ path: file, newText: 'the plan, again\n', toolCallId: 'edit-2' })),
      // A shell call, named by its command line as agents name them.
      turn(
        update({
          sessionUpdate: 'tool_call',
          toolCallId: 'run-1',
          title: COMMAND,
          kind: 'execute',
          status: 'pending',
          rawInput: { command: COMMAND },
        }),
        {
          type: 'permission',
          toolCall: { toolCallId: 'run-1', title: COMMAND, kind: 'execute', status: 'pending' },
        },
        say('Deployed.'),
      ),
    ],
  });
  h = await startTestHost({
    dataDir,
    push: { endpointPolicy: { unsafeAllowLoopbackForTests: true }, retryDelaysMs: [20, 40], timeoutMs: 2000 },
    agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
  });
});
afterAll(async () => {
  await h?.close(true);
  await service?.close();
});

async function asDevice(origin: ActionOrigin, action: Action) {
  const adapter = h.host.adapter;
  await adapter.checkAction?.(action, origin);
  const handlers = adapter.actions as unknown as Record<string, (a: Action, o: ActionOrigin) => unknown>;
  return adapter.runOnMain(() => handlers[action.action]!(action, origin));
}

/** A new subscription of the local push service, subscribed as the device of `origin`. */
async function subscribed(origin: ActionOrigin, replies = false): Promise<LocalSubscription> {
  const subscription = await service.subscribe(h.host.push!.vapid.publicKey);
  await asDevice(origin, {
    action: 'subscribePush',
    subscription: { endpoint: subscription.endpoint, keys: subscription.keys },
    choices: { approvals: true, replies },
  });
  return subscription;
}

async function pushed(subscription: LocalSubscription, count: number): Promise<PushPayload[]> {
  const raw = await waitFor(async () => {
    const messages = await service.messages(subscription);
    return messages.length >= count ? messages : undefined;
  });
  return raw.map((text) => pushPayloadSchema.parse(JSON.parse(text)));
}

describe("an ACP agent's permission request over Web Push", () => {
  it('is pushed to every device; Allow in the notification picks allow once and names the device', async () => {
    const phone = await subscribed(pixel);
    const tablet = await subscribed(ipad);
    await act(h, { action: 'newConversation', agentId: 'fake' });
    await act(h, { action: 'send', text: 'plan it', ...guardOf(await getState(h)) });
    const [toPhone] = await pushed(phone, 1);
    const [toTablet] = await pushed(tablet, 1);
    if (toPhone?.kind !== 'approval' || toTablet?.kind !== 'approval') throw new Error('not approvals');
    expect(toPhone.approvalId).toBe(toTablet.approvalId);

    const allowed = await fetch(`${h.url}/api/push/decide`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: toPhone.token, decision: 'allow' }),
    });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({
      approvalId: toPhone.approvalId,
      decision: 'allow',
      optionId: 'allow-once',
    });
    const done = await waitFor(async () => {
      const s = await getState(h);
      return s.conversations.messages.at(-1)?.stopReason === 'end_turn' ? s : undefined;
    });
    expect(readFileSync(file, 'utf8')).toBe('the plan\n');
    expect(done.conversations.messages.find((m) => m.role === 'tool')?.tool?.decided).toMatchObject({
      decision: 'allow',
      by: { kind: 'device', name: 'Pixel 7' },
    });
    const events = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; outcome?: unknown });
    expect(events.find((e) => e.type === 'permission')?.outcome).toEqual({
      outcome: 'selected',
      optionId: 'allow-once',
    });
    // The other device's notification is replaced by what happened and where.
    const [, replaced] = await pushed(tablet, 2);
    expect(replaced).toMatchObject({
      kind: 'answered',
      decided: { decision: 'allow', by: { name: 'Pixel 7' } },
    });
  });

  it('says the reply finished when the turn ends on a tool call that was approved', async () => {
    const watch = await subscribed({ device: { id: 'dev-watch', name: 'Watch' } }, true);
    await act(h, { action: 'send', text: 'again', ...guardOf(await getState(h)) });
    const [asked] = await pushed(watch, 1);
    if (asked?.kind !== 'approval') throw new Error(`not an approval: ${JSON.stringify(asked)}`);
    const allowed = await fetch(`${h.url}/api/push/decide`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: asked.token, decision: 'allow' }),
    });
    expect(allowed.status).toBe(200);
    const ended = await waitFor(async () => {
      const s = await getState(h);
      return s.conversations.messages.at(-1)?.stopReason === 'end_turn' ? s : undefined;
    });
    expect(ended.conversations.messages.at(-1)?.role).toBe('tool');
    const payloads = await pushed(watch, 3);
    expect(payloads.map((p) => p.kind).sort()).toEqual(['answered', 'approval', 'reply']);
    expect(payloads.find((p) => p.kind === 'reply')).toMatchObject({ outcome: 'finished' });
  });

  // An agent's title for its tool call is its own free text: a shell call is named by its command
  // line (Claude Code, opencode), which may hold a credential. A push passes through the browser
  // vendor's push service and shows on a locked screen: like the host's own run_command, it says
  // neither the command nor its arguments. The app's approval card still shows them.
  it("never pushes an agent's tool call title or input: a shell call's credential stays in the app", async () => {
    const pocket = await subscribed({ device: { id: 'dev-pocket', name: 'Pocket' } });
    await act(h, { action: 'send', text: 'deploy', ...guardOf(await getState(h)) });
    const [asked] = await pushed(pocket, 1);
    if (asked?.kind !== 'approval') throw new Error(`not an approval: ${JSON.stringify(asked)}`);
    expect(JSON.stringify(asked)).not.toContain(SECRET);
    expect(JSON.stringify(asked)).not.toContain('curl');
    // The agent as the page names it (its `initialize` title).
    expect(asked).toMatchObject({
      tool: 'Fake Agent',
      ask: { verb: 'use', target: 'Fake Agent' },
      summary: 'Use Fake Agent?',
    });
    const state = await getState(h);
    expect(state.approvals[0]?.tool).toBe(COMMAND);
    const allowed = await fetch(`${h.url}/api/push/decide`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: asked.token, decision: 'allow' }),
    });
    expect(allowed.status).toBe(200);
    const raw = await waitFor(async () => {
      const messages = await service.messages(pocket);
      return messages.length >= 2 ? messages : undefined;
    });
    for (const text of raw) expect(text).not.toContain(SECRET);
  });
});
