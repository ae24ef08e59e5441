import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Projection } from '@webbridge/contract';
import type { ChatController } from '../controller/ChatController';
import { type OpenChatControllerOptions, openChatController } from '../controller/openChatController';

/** A fresh, empty temporary directory. */
export function tempDir(prefix = 'webbridge-host-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A controller on a fresh data directory, with a fast echo model, for tests. */
export function testController(options: Partial<OpenChatControllerOptions> = {}): {
  controller: ChatController;
  dataDir: string;
} {
  const dataDir = options.dataDir ?? tempDir();
  const controller = openChatController({ echoDelayMs: 1, ...options, dataDir });
  return { controller, dataDir };
}

/** Runs `task` on the controller's main executor and waits for its commit, as the bridge does. */
export function onMain<T>(controller: ChatController, task: () => T): Promise<T> {
  return controller.runCommitted(task);
}

/**
 * Resolves with the projection once `predicate` holds, checking now and after each change the
 * controller announces. Rejects after `timeoutMs`.
 */
export function waitForState(
  controller: ChatController,
  predicate: (state: Projection) => boolean,
  timeoutMs = 5_000,
): Promise<Projection> {
  return new Promise((resolve, reject) => {
    if (predicate(controller.readState())) {
      resolve(controller.readState());
      return;
    }
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error('The expected state did not arrive in time.'));
    }, timeoutMs);
    const unsubscribe = controller.subscribe(() => {
      const state = controller.readState();
      if (!predicate(state)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(state);
    });
  });
}

/** Resolves once the current conversation's run is idle and its last message is complete. */
export function waitForIdle(controller: ChatController): Promise<Projection> {
  return waitForState(controller, (state) => {
    const last = state.conversations.messages.at(-1);
    return state.conversations.run.state === 'idle' && last?.status !== 'streaming';
  });
}
