/**
 * What the reference host spends on its messages below HTTP: replies of the echo model (no
 * pause between words) streamed into SQLite and the projection, from `send` until the reply is
 * complete, as CPU time per streamed word and per send (the send's two inserts, the reply's
 * appends, its completion). No sockets, no bridge: the host's share of a streamed reply.
 * Run: cd tests && node --import tsx bench/messageWrites.ts [sends] [words per reply]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openChatController } from '@webbridge/host';
import { printTable } from './table';

const sends = Number(process.argv[2] ?? 200);
const words = Number(process.argv[3] ?? 200);
const controller = openChatController({
  dataDir: mkdtempSync(join(tmpdir(), 'webbridge-message-writes-')),
  echoDelayMs: 0,
});
const text = Array.from({ length: words }, (_, i) => `word${i}`).join(' ');

/** Resolves once the current conversation has no reply running. */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (controller.readState().conversations.run.state !== 'idle') return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = controller.subscribe(check);
    check();
  });
}

async function round(count: number): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    // A fresh conversation now and then keeps the branch (and so each refresh) of one size.
    if (i % 20 === 0) await controller.runCommitted(() => controller.conversations.newConversation());
    const done = controller.runCommitted(() => controller.messages.send(text));
    await done;
    await idle();
  }
  await controller.whenCommitted();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

await round(Math.max(5, Math.floor(sends / 10)));
const { wall, cpu } = await round(sends);
printTable(`Echo replies streamed by the host (${sends} sends of ${words} words, no pause)`, [
  {
    sends,
    words: sends * words,
    'µs CPU per word': (cpu * 1000) / (sends * words),
    'µs wall per word': (wall * 1000) / (sends * words),
    'ms CPU per send': cpu / sends,
  },
]);
controller.close();
