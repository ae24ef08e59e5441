import type { Snapshot } from '../state/types';

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
          <li key={tool.name} class={tool.enabled ? '' : 'disabled'}>
            <code>{tool.name}</code>
            <span class="tool-tag">{!tool.enabled ? 'off' : tool.needsApproval ? 'asks first' : 'free'}</span>
            <p>{tool.description}</p>
          </li>
        ))}
      </ul>
    </details>
  );
}
