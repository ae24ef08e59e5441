import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionNotification } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost } from '../startHost';
import { processAlive } from './testing/processAlive';
import { writeStdioAgent } from './testing/stdioAgent';

let dir: string | undefined;

afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('startHost with --agent', () => {
  it('lists the agent idle, starts it on first use, and ends its whole process group on close', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-agents-'));
    const script = writeStdioAgent(dir);
    const host = await startHost({
      dataDir: path.join(dir, 'data'),
      accessCode: 'test-code-agents-1',
      staticDir: null,
      push: false,
      agents: { flags: [`one="${process.execPath}" "${script}"`] },
    });
    let closed = false;
    try {
      expect(host.agents.list()).toEqual([{ name: 'one', builtin: false, state: 'idle' }]);
      const connection = await host.agents.connection('one');
      const texts: string[] = [];
      const { sessionId } = await connection.newSession({
        cwd: path.join(dir, 'data', 'workspace'),
        mcpServers: [],
        handlers: {
          sessionUpdate: (n: SessionNotification) => {
            if (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text')
              texts.push(n.update.content.text);
          },
          requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
          approveWrite: async () => false,
        },
      });
      await connection.prompt(sessionId, [{ type: 'text', text: 'grandchild' }]);
      const grandchild = Number(texts.join(''));
      expect(processAlive(grandchild)).toBe(true);
      await host.close();
      closed = true;
      const end = Date.now() + 5_000;
      while (processAlive(grandchild) && Date.now() < end)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(processAlive(grandchild)).toBe(false);
    } finally {
      if (!closed) await host.close();
    }
  });
});
