/**
 * What one `model` action costs the reference host below HTTP: `conversations.setModel`
 * (alternating two models, as requestRateServer.ts does with a second provider) through the
 * adapter's `runOnMain`, which answers only once the action's writes are committed. Batches of
 * 1 per event-loop turn (a lone client) and of 50 (many sockets read in one poll phase), with
 * the wall and CPU time per call. No sockets, no bridge: the host's share of the request rate.
 * Run: cd tests && node --import tsx bench/groupCommit.ts [calls]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHostAdapter, EchoModel, openChatController } from '@webbridge/host';
import { printTable } from './table';

const calls = Number(process.argv[2] ?? 20_000);
const second = new EchoModel();
const controller = openChatController({
  dataDir: mkdtempSync(join(tmpdir(), 'webbridge-group-commit-')),
  providers: [
    {
      id: 'echo-b',
      models: second.models.map((m) => ({ ...m, id: 'echo-b', name: 'Echo B', provider: 'echo-b' })),
      followsToolResults: false,
      stream: second.stream.bind(second),
    },
  ],
});
const adapter = createHostAdapter(controller);
const models = ['echo', 'echo-b'] as const;
let turn = 0;

async function batches(size: number, total: number): Promise<void> {
  for (let done = 0; done < total; done += size) {
    const answers = [];
    for (let i = 0; i < size; i++) {
      const modelId = models[turn++ % 2]!;
      answers.push(adapter.runOnMain(() => controller.conversations.setModel(modelId)));
    }
    await Promise.all(answers);
    // A new turn of the event loop, as a new poll phase would be.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const rows = [];
for (const size of [1, 50]) {
  await batches(size, Math.min(2_000, calls));
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await batches(size, calls);
  const wall = Number(process.hrtime.bigint() - start) / 1_000;
  const used = process.cpuUsage(cpu);
  rows.push({
    'calls per turn': size,
    calls,
    'µs per call (wall)': wall / calls,
    'µs per call (CPU)': (used.user + used.system) / calls,
  });
}
controller.close();
printTable('setModel through runOnMain, answered once committed', rows);
