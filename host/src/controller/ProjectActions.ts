import { pathToFileURL } from 'node:url';
import { type ActionResultOf, ProtocolError } from '@webbridge/contract';
import type { ConversationTable } from '../db/ConversationTable';
import type { KvTable } from '../db/KvTable';
import type { ProjectTable } from '../db/ProjectTable';
import { newId } from '../ids';
import type { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import type { ControllerSteps } from './ControllerSteps';
import { notFound } from './errors';
import type { Selection } from './Selection';
import { rememberWorkspaceRoot } from './workspaceRoots';

/** What {@link ProjectActions} works with. */
export interface ProjectActionsDeps {
  /** Projects, a project's newest conversation, and the kv the authorised roots are remembered in. */
  readonly store: {
    readonly projects: Pick<ProjectTable, 'get' | 'insert' | 'setWorkspace'>;
    readonly conversations: Pick<ConversationTable, 'latestOf'>;
    readonly kv: KvTable;
  };
  readonly selection: Pick<Selection, 'projectId' | 'createConversation'>;
  readonly authoriser: WorkspaceAuthoriser;
  readonly steps: Pick<ControllerSteps, 'moveTo' | 'bumpSessionRevision' | 'refresh'>;
}

/**
 * Projects and the workspace folders they point at: select a project, point it at another
 * folder, and (for the host's own user, not the protocol) create projects and authorise roots.
 * Each publishes the new projection when it changes something.
 */
export class ProjectActions {
  private readonly store: ProjectActionsDeps['store'];
  private readonly selection: ProjectActionsDeps['selection'];
  private readonly authoriser: WorkspaceAuthoriser;
  private readonly steps: ProjectActionsDeps['steps'];

  constructor(deps: ProjectActionsDeps) {
    this.store = deps.store;
    this.selection = deps.selection;
    this.authoriser = deps.authoriser;
    this.steps = deps.steps;
  }

  /** Makes a project current, with its newest conversation (created if it has none). */
  selectProject(projectId: string): ActionResultOf<'selectProject'> {
    const { store, selection } = this;
    if (!store.projects.get(projectId)) throw notFound('project');
    if (projectId !== selection.projectId) {
      const row = store.conversations.latestOf(projectId) ?? selection.createConversation(projectId, '');
      this.steps.moveTo(row.id);
    }
    return { projectId };
  }

  /** Points the current project at another (already authorised) workspace folder. */
  setWorkspace(uri: string): ActionResultOf<'workspace'> {
    // The bridge has authorised the URI already; checking again costs little and keeps the
    // controller safe when it is driven by something other than the bridge.
    const folder = this.authoriser.authorisePath(uri);
    if (folder === undefined)
      throw new ProtocolError('workspace_forbidden', 'That folder is not authorised.');
    const { projectId } = this.selection;
    if (this.store.projects.get(projectId)?.workspacePath !== folder) {
      this.store.projects.setWorkspace(projectId, folder);
      this.steps.bumpSessionRevision();
      this.steps.refresh();
    }
    return { projectId, uri: pathToFileURL(folder).href };
  }

  /**
   * Creates a project on an authorised folder (not an action of the protocol yet; for the
   * console and tests). Returns its id.
   */
  createProject(name: string, folder: string): string {
    const workspace = this.authoriser.authorisePath(folder);
    if (workspace === undefined)
      throw new ProtocolError('workspace_forbidden', 'That folder is not authorised.');
    const id = newId();
    this.store.projects.insert({ id, name, workspacePath: workspace, createdAt: Date.now() });
    this.steps.refresh();
    return id;
  }

  /**
   * Authorises another workspace root, remembered across restarts. For the host's own user
   * (console, configuration) only: no action of the protocol reaches it. Returns the resolved
   * folder; throws when it is not an existing absolute folder.
   */
  addWorkspaceRoot(folder: string): string {
    const real = rememberWorkspaceRoot(this.store.kv, this.authoriser, folder);
    this.steps.refresh();
    return real;
  }
}
