import { heartbeatEventSchema, snapshotEventSchema, stateDataSchema } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBridge, type MockBridge } from './createMockBridge';

const open: MockBridge[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((bridge) => bridge.close()));
});

/** A mock bridge that takes the code `any`, closed after the test. */
function mockBridge(options: { wordDelayMs?: number; heartbeatMs?: number }): MockBridge {
  const bridge = createMockBridge({ accessCode: 'any', ...options });
  open.push(bridge);
  return bridge;
}

interface Frame {
  readonly event: string | undefined;
  readonly data: string;
}

/** Reads the mock's event stream until `done` holds for the frames so far. */
async function readUntil(response: Response, done: (frames: Frame[]) => boolean): Promise<Frame[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let text = '';
  while (!done(frames)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end !== -1) {
      const lines = text.slice(0, end).split('\n');
      text = text.slice(end + 2);
      const field = (name: string) => lines.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1);
      frames.push({ event: field('event'), data: field('data') ?? '' });
      end = text.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return frames;
}

const auth = { Authorization: 'Bearer any' };

/** Opens the mock's stream with `query`, sends a four-word message, reads until the reply ends. */
async function streamReply(query: string): Promise<Frame[]> {
  const backend = mockBridge({ wordDelayMs: 10, heartbeatMs: 45_000 });
  const response = await backend.fetch(new Request(`http://mock.test/api/events${query}`, { headers: auth }));
  const s = backend.state();
  const body = JSON.stringify({
    action: 'send',
    text: 'one two three four',
    sessionRevision: s.sessionRevision,
    conversationId: s.conversationId,
    projectId: s.projectId,
  });
  const sent = await backend.fetch(
    new Request('http://mock.test/api/action', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body,
    }),
  );
  expect(sent.status).toBe(200);
  // The reply has ended when a delta (not the first snapshot) says the run is idle again.
  return readUntil(response, (frames) =>
    frames.some((f) => f.data.startsWith('{"kind":"delta"') && f.data.includes('"run":{"state":"idle"')),
  );
}

describe('the mock bridge streams events as the bridge does (it is the bridge)', () => {
  it('by default every update is an `event: state`, and the snapshot names the heartbeat interval', async () => {
    const frames = await streamReply('');
    expect(frames.every((f) => f.event === 'state')).toBe(true);
    expect(snapshotEventSchema.parse(JSON.parse(frames[0]!.data)).heartbeatMs).toBe(45_000);
    const appends = frames.filter((f) => Array.isArray(stateDataSchema.parse(JSON.parse(f.data))));
    expect(appends.length).toBeGreaterThanOrEqual(3);
  });

  it('with ?frames=compact, appends come without an event line', async () => {
    const frames = await streamReply('?frames=compact');
    const unnamed = frames.filter((f) => f.event === undefined);
    expect(unnamed.length).toBeGreaterThanOrEqual(3);
    for (const f of unnamed) expect(Array.isArray(JSON.parse(f.data))).toBe(true);
    expect(frames.filter((f) => f.event !== undefined).every((f) => f.event === 'state')).toBe(true);
  });

  it('beats after the interval it names, and refuses an unknown frame form', async () => {
    const backend = mockBridge({ heartbeatMs: 20 });
    const response = await backend.fetch(new Request('http://mock.test/api/events', { headers: auth }));
    const frames = await readUntil(response, (f) => f.some((x) => x.event === 'heartbeat'));
    const beat = frames.find((f) => f.event === 'heartbeat')!;
    expect(heartbeatEventSchema.parse(JSON.parse(beat.data)).heartbeatMs).toBe(20);
    const refused = await backend.fetch(
      new Request('http://mock.test/api/events?frames=loud', { headers: auth }),
    );
    expect(refused.status).toBe(400);
  });
});
