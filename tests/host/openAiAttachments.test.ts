import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { act, getState, guardOf } from '../support/api';
import type { TestHost } from '../support/testHost';
import { type FakeOpenAi, startFakeOpenAi } from './fakeOpenAi';
import { startModelHost, waitForLast } from './modelHost';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.reverse()) await close();
  cleanup = [];
});

async function setup() {
  const fake = await startFakeOpenAi();
  cleanup.push(() => fake.close());
  const h = await startModelHost({ baseUrl: fake.baseUrl, apiKey: undefined, models: ['gpt-fake-vision'] });
  cleanup.push(() => h.close());
  return { fake, h };
}

function chats(fake: FakeOpenAi) {
  return fake.requests.filter((r) => r.path === '/v1/chat/completions');
}

async function upload(h: TestHost, name: string, type: string, body: Buffer | string): Promise<string> {
  const response = await fetch(`${h.url}/api/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { ...h.auth(), 'Content-Type': type },
    body,
  });
  if (response.status !== 201) throw new Error(`upload ${name}: ${response.status} ${await response.text()}`);
  const { attachment } = (await response.json()) as { attachment: { id: string } };
  return attachment.id;
}

describe('attachments sent to an OpenAI-compatible model', () => {
  it('inlines text files, sends images as image_url parts and names the rest', async () => {
    const { fake, h } = await setup();
    await upload(h, 'notes.txt', 'text/plain', 'first line\nsecond line');
    await upload(h, 'data.json', 'application/json', '{"answer":42}');
    await upload(h, 'dot.png', 'image/png', PNG);
    await upload(h, 'fake.png', 'image/png', 'not really a png');
    await upload(h, 'archive.zip', 'application/zip', Buffer.from([0x50, 0x4b, 3, 4, 0]));
    await upload(h, 'huge.txt', 'text/plain', 'y'.repeat(256 * 1024 + 1));
    await upload(h, 'huge.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]));
    fake.reply({ kind: 'text', chunks: ['Seen.'] });
    await act(h, { action: 'send', text: 'look at these', ...guardOf(await getState(h)) });
    await waitForLast(h, (m) => m.role === 'assistant' && m.status === 'complete');

    const messages = chats(fake)[0]?.body?.messages as { role: string; content: unknown }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe('user');
    const content = messages[0]?.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(content.map((part) => part.type)).toEqual(['text', 'image_url']);
    expect(content[0]?.text).toBe(
      [
        'look at these',
        '<attached-file name="notes.txt" type="text/plain">\nfirst line\nsecond line\n</attached-file>',
        '<attached-file name="data.json" type="application/json">\n{"answer":42}\n</attached-file>',
        `[Attached files not included: fake.png (image/png, 16 bytes), archive.zip (application/zip, 5 bytes), huge.txt (text/plain, ${256 * 1024 + 1} bytes), huge.png (image/png, ${PNG.length + 5 * 1024 * 1024} bytes)]`,
      ].join('\n\n'),
    );
    expect(content[1]?.image_url?.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('keeps a text-only message a plain string', async () => {
    const { fake, h } = await setup();
    await upload(h, 'a.md', 'text/markdown', '# Title');
    fake.reply({ kind: 'text', chunks: ['ok'] });
    await act(h, { action: 'send', text: '', ...guardOf(await getState(h)) });
    await waitForLast(h, (m) => m.role === 'assistant' && m.status === 'complete');
    const messages = chats(fake)[0]?.body?.messages as { content: unknown }[];
    expect(messages[0]?.content).toBe(
      '<attached-file name="a.md" type="text/markdown">\n# Title\n</attached-file>',
    );
  });

  it('gives the model a large tool result in full, while the message shows a preview and a media link', async () => {
    const { fake, h } = await setup();
    const big = Array.from({ length: 1500 }, (_, i) => `row ${i}: ${'z'.repeat(20)}`).join('\n');
    writeFileSync(join(h.dataDir, 'workspace', 'big.txt'), big);
    fake.reply(
      { kind: 'tool', name: 'read_file', argPieces: ['{"path":"big.txt"}'] },
      { kind: 'text', chunks: ['Read', ' it.'] },
    );
    await act(h, { action: 'send', text: 'read big.txt', ...guardOf(await getState(h)) });
    const done = await waitForLast(
      h,
      (m) => m.role === 'assistant' && m.status === 'complete' && m.text !== '',
    );
    const result = done.conversations.messages.find((m) => m.role === 'tool')!;
    expect(result.text).toMatch(/^row 0: z+\n[\s\S]*\n… \(full output attached\)$/);
    expect(result.attachments).toHaveLength(1);
    const media = await fetch(`${h.url}/api/media?id=${result.attachments[0]!.media.id}`);
    expect(media.status).toBe(200);
    expect(await media.text()).toBe(big);

    const second = chats(fake)[1]?.body?.messages as { role: string; content: unknown }[];
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: big });
  });

  it('offers run_command to the model only while commands are allowed', async () => {
    const { fake, h } = await setup();
    const toolNames = (index: number) =>
      ((chats(fake)[index]?.body?.tools ?? []) as { function: { name: string } }[]).map(
        (t) => t.function.name,
      );
    fake.reply({ kind: 'text', chunks: ['one'] }, { kind: 'text', chunks: ['two'] });
    await act(h, { action: 'send', text: 'first', ...guardOf(await getState(h)) });
    await waitForLast(h, (m) => m.role === 'assistant' && m.status === 'complete');
    expect(toolNames(0)).not.toContain('run_command');
    await act(h, { action: 'updateSettings', settings: { allowCommands: true } });
    await act(h, { action: 'send', text: 'second', ...guardOf(await getState(h)) });
    await waitForLast(h, (m) => m.role === 'assistant' && m.status === 'complete' && m.text === 'two');
    expect(toolNames(1)).toEqual([
      'list_files',
      'read_file',
      'search_text',
      'write_file',
      'patch_file',
      'run_command',
    ]);
  });
});
