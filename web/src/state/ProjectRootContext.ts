import { createContext } from 'preact';
import { folderOf } from '../render/folderOf';
import type { Snapshot } from './types';

/**
 * The workspace folder of the project the file paths below belong to: a path inside it is shown
 * relative to it. Undefined (the default) shows whole paths.
 */
export const ProjectRootContext = createContext<string | undefined>(undefined);

/** The workspace folder of conversation `conversationId`'s project, when the snapshot knows it. */
export function projectRootOf(snapshot: Snapshot | null, conversationId: string): string | undefined {
  if (snapshot === null) return undefined;
  const projectId =
    conversationId === snapshot.conversationId
      ? snapshot.projectId
      : snapshot.conversations.list.find((c) => c.id === conversationId)?.projectId;
  const project = snapshot.projects.list.find((p) => p.id === projectId);
  return project === undefined ? undefined : folderOf(project.workspace.uri);
}
