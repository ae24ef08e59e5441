import { useEffect, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { useSession } from '../state/SessionContext';
import type { Snapshot } from '../state/types';

/** Props of {@link ProjectPanel}. */
export interface ProjectPanelProps {
  readonly projects: Snapshot['projects'];
  readonly projectId: string;
  readonly onNavigate: () => void;
}

/**
 * The current project and its workspace folder. The folder can be changed to one of the host's
 * authorised roots or a folder below one; the host checks it (the page cannot widen access).
 */
export function ProjectPanel({ projects, projectId, onNavigate }: ProjectPanelProps) {
  const session = useSession();
  const t = useT();
  const { list, roots } = projects;
  const project = list.find((p) => p.id === projectId);
  const [uri, setUri] = useState(project?.workspace.uri ?? '');
  useEffect(() => setUri(project?.workspace.uri ?? ''), [project?.workspace.uri]);

  return (
    <section class="panel" aria-labelledby="project-heading">
      <h2 id="project-heading">{t('project')}</h2>
      <label class="field">
        <span>{t('project')}</span>
        <select
          value={projectId}
          onChange={async (event) => {
            if (await session.act({ action: 'selectProject', projectId: event.currentTarget.value }))
              onNavigate();
          }}
        >
          {list.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <form
        class="field"
        onSubmit={(event) => {
          event.preventDefault();
          if (uri.trim() !== '' && uri !== project?.workspace.uri)
            void session.sensitive((client) => client.workspace(uri.trim()));
        }}
      >
        <label for="workspace-uri">
          {project ? t('workspaceNamed', { name: project.workspace.name }) : t('workspace')}
        </label>
        <div class="inline-field">
          <input
            id="workspace-uri"
            dir="auto"
            list="workspace-roots"
            value={uri}
            onInput={(event) => setUri(event.currentTarget.value)}
            spellcheck={false}
          />
          <button type="submit" class="small" disabled={uri === project?.workspace.uri}>
            {t('setWorkspace')}
          </button>
        </div>
        <datalist id="workspace-roots">
          {roots.map((root) => (
            <option key={root.uri} value={root.uri}>
              {root.name}
            </option>
          ))}
        </datalist>
      </form>
    </section>
  );
}
