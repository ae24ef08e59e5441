import type { HostStore } from '../db/HostStore';
import type { MainExecutor } from '../executor/MainExecutor';
import type { MessageRepository } from './MessageRepository';
import type { ProjectionPublisher } from './ProjectionPublisher';
import type { Selection } from './Selection';

/** What the turns write to: the controller's shared state, seen from here. */
export interface AgentTurnsTarget {
  readonly closed: boolean;
  readonly store: HostStore;
  readonly messages: MessageRepository;
  readonly selection: Pick<Selection, 'setLeaf'>;
  readonly publisher: Pick<ProjectionPublisher, 'appendText'>;
  /** Where a question withdrawn by the agent is cleaned up (its own task). */
  readonly executor: Pick<MainExecutor, 'run'>;
  refresh(): void;
  /** Publishes a send's change still waiting for its prompt to leave (ControllerCore.refreshSoon). */
  refreshIfDue(): void;
}
