import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelEvent, ModelProvider, ModelRequest, RunningHost } from '@webbridge/host';

/**
 * A realistic agent conversation for the slow-phone benchmarks (issue 29): questions about a
 * small project, answers in prose, code blocks and tables, and every third question answered
 * through one of the host's real tools (read_file, search_text, list_files on files this module
 * writes into the project's workspace) whose result the model then explains. Seeded through the
 * host's own controller, as a person's sends would be.
 */

/** Answers at once: seeds thousands of messages in seconds. */
export const AGENT_MODEL = 'scripted-agent';

const SERVER_TS = [
  "import { createServer } from 'node:http';",
  "import { readConfig } from './config';",
  '',
  '/** Starts the bridge on the configured port and answers health checks. */',
  'export async function start(): Promise<void> {',
  '  const config = await readConfig();',
  '  const server = createServer((request, response) => {',
  "    if (request.url === '/health') {",
  "      response.writeHead(200, { 'content-type': 'text/plain' });",
  "      response.end('ok');",
  '      return;',
  '    }',
  '    response.writeHead(404);',
  '    response.end();',
  '  });',
  '  await new Promise<void>((resolve) => server.listen(config.port, resolve));',
  "  console.log('listening on', config.port);",
  '}',
  '',
].join('\n');

const CONFIG_TS = [
  '/** What the bridge reads at start. */',
  'export interface Config {',
  '  readonly port: number;',
  '  readonly dataDir: string;',
  '  readonly allowCommands: boolean;',
  '}',
  '',
  'export async function readConfig(): Promise<Config> {',
  "  const port = Number(process.env.PORT ?? '8080');",
  "  if (!Number.isInteger(port) || port <= 0) throw new Error('PORT is not a port: ' + process.env.PORT);",
  "  return { port, dataDir: process.env.DATA_DIR ?? './data', allowCommands: false };",
  '}',
  '',
].join('\n');

const README = [
  '# bridge',
  '',
  'A small service that answers health checks and keeps its data in `./data`.',
  '',
  '| variable | default | meaning |',
  '|---|---|---|',
  '| `PORT` | 8080 | where it listens |',
  '| `DATA_DIR` | ./data | where it keeps its files |',
  '',
].join('\n');

/** Writes the files the agent's tools read into `workspace` (the project's folder). */
export function writeAgentWorkspace(workspace: string): void {
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'server.ts'), SERVER_TS);
  writeFileSync(join(workspace, 'src', 'config.ts'), CONFIG_TS);
  writeFileSync(join(workspace, 'README.md'), README);
}

const QUESTIONS: readonly string[] = [
  'What does src/server.ts do?',
  'Why does the health check answer in plain text?',
  'Compare the ways we could read the port, in a table please.',
  'Where is PORT read?',
  'Write a test for readConfig.',
  'ok, thanks',
  'What is in the project?',
  'Explain the startup order step by step.',
  'Can the data folder be relative?',
];

/** The tool the agent calls for question `i`, or none (two questions in three). */
function toolFor(i: number): { name: string; args: string } | undefined {
  switch (i % 9) {
    case 0:
      return { name: 'read_file', args: JSON.stringify({ path: 'src/server.ts' }) };
    case 3:
      return { name: 'search_text', args: JSON.stringify({ pattern: 'PORT' }) };
    case 6:
      return { name: 'list_files', args: JSON.stringify({ path: '.' }) };
    default:
      return undefined;
  }
}

const ANSWERS: readonly string[] = [
  'It starts an HTTP server on the configured port. `/health` answers **200 ok** in plain text; every other path gets a 404 with an empty body. The port comes from `readConfig()`, which validates it before anything listens.',
  'Because the thing that calls it is a load balancer, not a person: it reads the status code and nothing else. Plain text keeps the check cheap, and nobody has to parse JSON to learn that the service is alive.',
  [
    'Three ways, with what each costs:',
    '',
    '| way | where it is read | validated | restart to change |',
    '|---|---|---|---|',
    '| environment | `process.env.PORT` | yes, in `readConfig` | yes |',
    '| config file | `bridge.json` | with a schema | yes |',
    '| command line | `--port` | by the parser | yes |',
    '',
    'The environment is what we have today and what containers expect, so I would keep it.',
  ].join('\n'),
  'Only in `src/config.ts`, in `readConfig()`: `Number(process.env.PORT ?? "8080")`, then a check that it is a positive integer. Nothing else in the project reads the environment for the port.',
  [
    'Here is a test with vitest that sets the variable and restores it:',
    '',
    '```ts',
    "import { afterEach, describe, expect, it } from 'vitest';",
    "import { readConfig } from '../src/config';",
    '',
    "describe('readConfig', () => {",
    '  const saved = process.env.PORT;',
    '  afterEach(() => {',
    '    process.env.PORT = saved;',
    '  });',
    '',
    "  it('reads the port', async () => {",
    "    process.env.PORT = '9090';",
    '    expect((await readConfig()).port).toBe(9090);',
    '  });',
    '',
    "  it('refuses a port that is not one', async () => {",
    "    process.env.PORT = 'eighty';",
    '    await expect(readConfig()).rejects.toThrow(/not a port/);',
    '  });',
    '});',
    '```',
    '',
    'The second case is the one that matters: a typo in the environment should stop the start, not bind a random port.',
  ].join('\n'),
  'You are welcome.',
  'Two source files under `src/` (the server and its config) and a README with a table of the variables. No tests yet, and no lock file.',
  [
    '1. `start()` reads the configuration (`readConfig`), which can throw on a bad `PORT`.',
    '2. It creates the server with its one handler; nothing listens yet.',
    '3. It waits for `listen` to call back, so a port already in use rejects the start.',
    '4. Only then does it log the port, so the log line means the service is reachable.',
    '',
    'If step 1 throws, nothing was opened, so there is nothing to close.',
  ].join('\n'),
  'Yes: `./data` is resolved against the working directory of the process, which under a service manager is often `/`. An absolute path in `DATA_DIR` avoids the surprise; the README could say so.',
];

const AFTER_TOOL: readonly string[] = [
  'That is the whole file: one handler, a health route and a 404 for the rest. The server is created before it listens, so a bad configuration fails before any port is taken.',
  [
    'Found it in two places:',
    '',
    '| file | line | what |',
    '|---|---|---|',
    '| `src/config.ts` | 9 | reads `process.env.PORT` with 8080 as default |',
    '| `README.md` | 7 | documents the variable |',
    '',
    'Only the first one is code.',
  ].join('\n'),
  'The project has `README.md` and a `src/` folder with `server.ts` and `config.ts`: small enough to read in one sitting.',
];

/** The question of exchange `i` (numbered, so each is its own message). */
export function agentQuestion(i: number): string {
  return `${QUESTIONS[i % QUESTIONS.length]} (${i + 1})`;
}

function exchangeOf(text: string): number {
  const match = /\((\d+)\)$/.exec(text);
  return match ? Number(match[1]) - 1 : 0;
}

/**
 * A model provider that answers {@link agentQuestion}s at once (one piece), calling a tool for
 * every third and explaining the tool's result when asked again (it follows tool results).
 */
export function agentModels(): ModelProvider {
  return {
    id: 'scripted-agent',
    followsToolResults: true,
    models: [{ id: AGENT_MODEL, name: 'Scripted agent (instant)', provider: 'scripted-agent' }],
    async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
      const lastUser = [...request.messages].reverse().find((m) => m.role === 'user')?.text ?? '';
      const i = exchangeOf(lastUser);
      const tool = toolFor(i);
      if (request.messages.at(-1)?.role === 'tool') {
        yield { type: 'text', text: AFTER_TOOL[Math.floor((i % 9) / 3)] ?? '' };
        return;
      }
      if (tool) {
        yield { type: 'text', text: 'Let me look.' };
        yield { type: 'tool_call', ...tool };
        return;
      }
      yield { type: 'text', text: ANSWERS[i % ANSWERS.length] ?? '' };
    },
  };
}

/** Resolves when the current conversation has no reply running and its last message is a finished answer. */
function whenSettled(controller: RunningHost['controller']): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const state = controller.readState();
      const last = state.conversations.messages.at(-1);
      if (state.conversations.run.state !== 'idle') return;
      if (last?.role !== 'assistant' || last.tool !== undefined || last.status === 'streaming') return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = controller.subscribe(check);
    check();
  });
}

/**
 * Adds agent exchanges to the host's current conversation until it holds at least `messages`
 * messages (an exchange with a tool is four: question, call, result, answer), then selects
 * `thenModel`. The host must have been started with {@link agentModels} and the workspace
 * written by {@link writeAgentWorkspace}.
 */
export async function seedAgentConversation(
  host: RunningHost,
  messages: number,
  thenModel: string,
): Promise<void> {
  const { controller } = host;
  await controller.executor.run(() => controller.conversations.setModel(AGENT_MODEL));
  for (let i = 0; controller.readState().conversations.messages.length < messages; i++) {
    await controller.executor.run(() => controller.messages.send(agentQuestion(i)));
    await whenSettled(controller);
  }
  await controller.executor.run(() => controller.conversations.setModel(thenModel));
}
