import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import type { Snapshot } from '../state/types';

type Tool = Snapshot['tools']['list'][number];
type McpServer = NonNullable<Snapshot['tools']['servers']>[number];

/** Why a disabled tool is off and how to turn it on. */
function offReason(tool: Tool): MessageKey {
  return tool.name === 'run_command' ? 'toolOffCommands' : 'toolOffSettings';
}

/** How a server's state reads in the list. */
const STATE_LABEL: Readonly<Record<McpServer['state'], MessageKey>> = {
  starting: 'mcpStarting',
  ready: 'mcpReady',
  failed: 'mcpFailed',
  restarting: 'mcpRestarting',
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
  const t = useT();
  const down = servers.filter((server) => server.state !== 'ready').length;
  return (
    <details class="panel">
      <summary>
        <h2>{t('tools', { count: tools.length })}</h2>
        {down > 0 && (
          <span class="tool-tag" data-mcp-down={down}>
            {down === 1 ? t('mcpDownOne') : t('mcpDownMany', { count: down })}
          </span>
        )}
      </summary>
      {servers.length > 0 && (
        <ul class="tools" aria-label={t('mcpServers')}>
          {servers.map((server) => (
            <li
              key={server.name}
              class={server.state === 'ready' ? undefined : 'disabled'}
              data-mcp-server={server.name}
              data-state={server.state}
            >
              <code>{server.name}</code>
              <span class="tool-tag">
                MCP · {t(STATE_LABEL[server.state])} ·{' '}
                {server.toolCount === 1
                  ? t('mcpToolCountOne')
                  : t('mcpToolCountMany', { count: server.toolCount })}
                {server.approval === 'allow' ? ` · ${t('mcpTrusted')}` : ''}
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
            title={tool.enabled ? undefined : t(offReason(tool))}
          >
            <code>{tool.name}</code>
            <span class="tool-tag">
              {t(!tool.enabled ? 'toolOff' : tool.needsApproval ? 'toolAsksFirst' : 'toolFree')}
            </span>
            <p>{tool.description}</p>
            {!tool.enabled && <p class="tool-off-reason">{t(offReason(tool))}</p>}
          </li>
        ))}
      </ul>
    </details>
  );
}
