import type { Snapshot } from '../state/types';

type Tool = Snapshot['tools']['list'][number];

/** Why a disabled tool is off and how to turn it on. */
function offReason(tool: Tool): string {
  if (tool.name === 'run_command') {
    return 'Off: enabled by the “Allow running commands” setting (Settings below).';
  }
  return 'Off: the current settings do not allow this tool.';
}

/** Props of {@link ToolsList}. */
export interface ToolsListProps {
  readonly tools: Snapshot['tools']['list'];
}

/** The tools the model may call, and whether each asks first. */
export function ToolsList({ tools }: ToolsListProps) {
  return (
    <details class="panel">
      <summary>
        <h2>Tools ({tools.length})</h2>
      </summary>
      <ul class="tools">
        {tools.map((tool) => (
          <li
            key={tool.name}
            class={tool.enabled ? undefined : 'disabled'}
            data-tool={tool.name}
            title={tool.enabled ? undefined : offReason(tool)}
          >
            <code>{tool.name}</code>
            <span class="tool-tag">
              {!tool.enabled ? '(off)' : tool.needsApproval ? 'asks first' : 'free'}
            </span>
            <p>{tool.description}</p>
            {!tool.enabled && <p class="tool-off-reason">{offReason(tool)}</p>}
          </li>
        ))}
      </ul>
    </details>
  );
}
