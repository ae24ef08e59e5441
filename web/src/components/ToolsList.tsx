import type { Snapshot } from '../state/types';

type Tool = Snapshot['tools']['list'][number];
type McpServer = NonNullable<Snapshot['tools']['servers']>[number];

/** Why a disabled tool is off and how to turn it on. */
function offReason(tool: Tool): string {
  if (tool.name === 'run_command') {
    return 'Off: enabled by the “Allow running commands” setting (Settings below).';
  }
  return 'Off: the current settings do not allow this tool.';
}

/** How a server's state reads in the list. */
const STATE_LABEL: Readonly<Record<McpServer['state'], string>> = {
  starting: 'starting…',
  ready: 'ready',
  failed: 'failed',
  restarting: 'restarting…',
};

/** Props of {@link ToolsList}. */
export interface ToolsListProps {
  readonly tools: Snapshot['tools']['list'];
  /** The host's MCP servers and how each is doing, when it has any. */
  readonly servers?: Snapshot['tools']['servers'] | undefined;
}

/**
 * The tools the model may call, and whether each asks first; above them the host's MCP
 * servers, each with its state, its tool count and why it last failed. A server that is
 * down is counted in the summary, so it shows while the list is folded.
 */
export function ToolsList({ tools, servers = [] }: ToolsListProps) {
  const down = servers.filter((server) => server.state !== 'ready').length;
  return (
    <details class="panel">
      <summary>
        <h2>Tools ({tools.length})</h2>
        {down > 0 && (
          <span class="tool-tag" data-mcp-down={down}>
            {down === 1 ? '1 MCP server not ready' : `${down} MCP servers not ready`}
          </span>
        )}
      </summary>
      {servers.length > 0 && (
        <ul class="tools" aria-label="MCP servers">
          {servers.map((server) => (
            <li
              key={server.name}
              class={server.state === 'ready' ? undefined : 'disabled'}
              data-mcp-server={server.name}
              data-state={server.state}
            >
              <code>{server.name}</code>
              <span class="tool-tag">
                MCP · {STATE_LABEL[server.state]} · {server.toolCount}{' '}
                {server.toolCount === 1 ? 'tool' : 'tools'}
                {server.approval === 'allow' ? ' · trusted' : ''}
              </span>
              {server.lastError !== undefined && <p class="tool-off-reason">{server.lastError}</p>}
            </li>
          ))}
        </ul>
      )}
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
