import { useT } from '../i18n/I18nContext';
import type { FileDiff } from '../state/agentMessageTypes';
import { DiffDisclosure } from './DiffDisclosure';
import { DiffView } from './DiffView';

/**
 * What one of the host's own file tools changed, under its result: the diff its approval
 * showed stays in the conversation's history. One file is drawn open, as on the approval
 * card; several each open on a tap (a turn of many edits draws only what is looked at).
 */
export function ToolResultDiffs({ diffs }: { readonly diffs: readonly FileDiff[] }) {
  const t = useT();
  if (diffs.length === 1 && diffs[0]) return <DiffView diff={diffs[0]} />;
  return (
    <>
      {diffs.map((diff) => (
        <DiffDisclosure
          key={diff.path}
          class="agent-tool-diff"
          diff={diff}
          summary={t('toolDiffOf', { path: diff.path.slice(diff.path.lastIndexOf('/') + 1) })}
        />
      ))}
    </>
  );
}
