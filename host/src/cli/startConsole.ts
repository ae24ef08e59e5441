import readline from 'node:readline';
import type { RunningHost } from '../startHost';
import { generateAccessCode } from './generateAccessCode';

/** What the console needs from the running CLI. */
export interface ConsoleContext {
  readonly host: RunningHost;
  /** The current access code. */
  readonly code: () => string;
  /** Replaces the access code everywhere (bridge and CLI). */
  readonly setCode: (code: string) => void;
  /** Shuts the service down. */
  readonly quit: () => void;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

const HELP = `Commands:
  help        this list
  code        show the access code
  rotate      replace the access code (connected browsers must enter the new one)
  convs       list the conversations
  switch <n>  make conversation n current, as the host's own user would
  new         start a new conversation
  quit        stop webbridge`;

/**
 * A small console on the terminal that acts as the host app's own user: it switches
 * conversations and rotates the access code through the same executor the browser's actions
 * use, so the browser sees these changes exactly as it would see a phone user's.
 * Returns a function that closes the console.
 */
export function startConsole(context: ConsoleContext): () => void {
  const { host, output } = context;
  const rl = readline.createInterface({ input: context.input, output, prompt: 'webbridge> ' });
  const print = (text: string) => output.write(`${text}\n`);
  const controller = host.controller;

  const commands: Record<string, (arg: string) => Promise<void> | void> = {
    help: () => {
      print(HELP);
    },
    code: () => {
      print(`Access code: ${context.code()}`);
    },
    rotate: () => {
      const code = generateAccessCode();
      context.setCode(code);
      print(`New access code: ${code}`);
    },
    convs: async () => {
      const state = await controller.executor.run(() => controller.readState());
      state.conversations.list.forEach((conversation, index) => {
        const mark = conversation.id === state.conversationId ? '*' : ' ';
        print(`${mark} ${index + 1}. ${conversation.title}`);
      });
    },
    switch: async (arg) => {
      const n = Number(arg);
      const title = await controller.executor.run(() => {
        const target = controller.readState().conversations.list[n - 1];
        if (!Number.isInteger(n) || !target) return undefined;
        controller.selectConversation(target.id);
        return target.title;
      });
      print(title === undefined ? 'No such conversation; see `convs`.' : `Switched to: ${title}`);
    },
    new: async () => {
      await controller.executor.run(() => controller.newConversation());
      print('Started a new conversation.');
    },
    quit: () => {
      rl.close();
      context.quit();
    },
  };

  rl.on('line', (line) => {
    const [name = '', ...rest] = line.trim().split(/\s+/);
    const command = commands[name];
    if (name === '') {
      rl.prompt();
      return;
    }
    if (!command) {
      print(`Unknown command "${name}". Type help.`);
      rl.prompt();
      return;
    }
    Promise.resolve()
      .then(() => command(rest.join(' ')))
      .catch((error: unknown) => print(`Failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (name !== 'quit') rl.prompt();
      });
  });
  rl.prompt();
  return () => rl.close();
}
