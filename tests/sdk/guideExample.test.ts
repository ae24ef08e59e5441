import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { getState, waitFor } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { guideExample } from './guideExample';

let h: TestHost;
beforeEach(async () => {
  h = await startTestHost({ echoDelayMs: 20 });
});
afterEach(() => h.close(true));

it('the example of docs/SDK.md runs against a real host and does what the guide says', async () => {
  const lines: string[] = [];
  await guideExample(h.url, TEST_CODE, (line) => lines.push(line));
  expect(lines).toContain('live: no messages');
  expect(lines).toContain('uploaded 19 of 19 bytes');
  expect(lines).toContain('refused: 404 not_found');
  // The reply was followed as it streamed, then complete (the echo model repeats the question).
  expect(lines.some((line) => line.startsWith('live: assistant (streaming): '))).toBe(true);
  expect(lines).toContain('live: assistant (complete): What is on my list?');
  const state = await waitFor(async () => {
    const s = await getState(h);
    return s.conversations.run.state === 'idle' ? s : undefined;
  });
  const sent = state.conversations.messages.find((m) => m.role === 'user');
  expect(sent?.attachments.map((a) => a.name)).toEqual(['notes.txt']);
  expect(state.conversations.pending).toEqual([]);
});

it('docs/SDK.md shows exactly the code that runs', () => {
  const source = readFileSync(new URL('./guideExample.ts', import.meta.url), 'utf8');
  const example = source.slice(
    source.indexOf('// guide:start\n') + '// guide:start\n'.length,
    source.indexOf('// guide:end'),
  );
  const guide = readFileSync(new URL('../../docs/SDK.md', import.meta.url), 'utf8');
  expect(guide).toContain(`\`\`\`ts\n${example}\`\`\``);
});
