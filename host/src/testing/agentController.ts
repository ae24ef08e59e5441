import type { AgentEntry } from '../agents/AgentEntry';
import { Agents } from '../agents/Agents';
import type { ChatController } from '../controller/ChatController';
import type { OpenChatControllerOptions } from '../controller/openChatController';
import { testController } from './testController';

/**
 * A test controller whose conversations may be backed by the given agents (in-process agent
 * apps, e.g. {@link miniAgent}). Close both: `controller.close(); await agents.close()`.
 */
export function agentController(
  entries: readonly AgentEntry[],
  options: Partial<OpenChatControllerOptions> = {},
): { controller: ChatController; agents: Agents; dataDir: string } {
  const owner: { controller?: ChatController } = {};
  // The agents check folders with the controller's authoriser, which the controller makes.
  const agents = new Agents({
    entries,
    authoriser: {
      authorisePath: (uri: string) => owner.controller?.authoriser.authorisePath(uri),
      get roots() {
        return owner.controller?.authoriser.roots ?? [];
      },
    },
  });
  const { controller, dataDir } = testController({ ...options, agents });
  owner.controller = controller;
  return { controller, agents, dataDir };
}
