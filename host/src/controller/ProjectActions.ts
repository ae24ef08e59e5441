import { pathToFileURL } from 'node:url';
import { type ActionResultOf, ProtocolError } from '@webbridge/contract';
import { newId } from '../ids';
import type { ControllerCore } from './ControllerCore';
import { notFound } from './errors';
import { rememberWorkspaceRoot } from './workspaceRoots';

/**
 * Projects and the workspace folders they point at: select a project, point it at another
 * folder, and (for the host's own user, not the protocol) create projects and authorise roots.
 * Each publishes the new projection when it changes something.
 */
export class ProjectActions {
  private readonly core: ControllerCore;

  constructor(core: ControllerCore) {
    this.core = core;
  }

  /** Makes a project current, with its newest conversation (created if it has none). */
  selectProject(projectId: string): ActionResultOf<'selectProject'> {
    const { core } = this;
    if (!core.store.project(projectId)) throw notFound('project');
    if (projectId !== core.selection.projectId) {
      const row =
        core.store.latestConversation(projectId) ?? core.selection.createConversation(projectId, '');
      core.moveTo(row.id);
    }
    return { projectId };
  }

  /** Points the current project at another (already authorised) workspace folder. */
  setWorkspace(uri: string): ActionResultOf<'workspace'> {
    const { core } = this;
    // The bridge has authorised the URI already; checking again costs little and keeps the
    // controller safe when it is driven by something other than the bridge.
    const folder = core.authoriser.authorisePath(uri);
    if (folder === undefined)
      throw new ProtocolError('workspace_forbidden', 'That folder is not authorised.');
    const { projectId } = core.selection;
    if (core.store.project(projectId)?.workspace_path !== folder) {
      core.store.setProjectWorkspace(projectId, folder);
      core.bumpSessionRevision();
      core.refresh();
    }
    return { projectId, uri: pathToFileURL(folder).href };
  }

  /**
   * Creates a project on an authorised folder (not an action of the protocol yet; for the
   * console and tests). Returns its id.
   */
  createProject(name: string, folder: string): string {
    const { core } = this;
    const workspace = core.authoriser.authorisePath(folder);
    if (workspace === undefined)
      throw new ProtocolError('workspace_forbidden', 'That folder is not authorised.');
    const id = newId();
    core.store.insertProject({ id, name, workspace_path: workspace, created_at: Date.now() });
    core.refresh();
    return id;
  }

  /**
   * Authorises another workspace root, remembered across restarts. For the host's own user
   * (console, configuration) only: no action of the protocol reaches it. Returns the resolved
   * folder; throws when it is not an existing absolute folder.
   */
  addWorkspaceRoot(folder: string): string {
    const { core } = this;
    const real = rememberWorkspaceRoot(core.store, core.authoriser, folder);
    core.refresh();
    return real;
  }
}
