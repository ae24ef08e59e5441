import type { Agents } from './Agents';

/** The console's help lines for {@link agentsCommand}. */
export const AGENTS_CONSOLE_HELP = `  agents               the ACP agents: state, version, why one failed or how to sign in
  agents restart <n>   restart an agent now (e.g. after signing in)`;

/**
 * The console's `agents` command: without an argument it lists the agents (one line each, the
 * reason of a failure or the sign-in command under it); `restart <name>` restarts one at once.
 *
 * @example
 * ```text
 * webbridge> agents
 *   builtin   ready          the host's own loop (default)
 *   opencode  ready          OpenCode 1.18.33
 *   claude    needs_sign_in
 *             The agent "claude" needs you to sign in on the host. Run: claude  (then /login)
 * ```
 */
export function agentsCommand(agents: Agents, arg: string, print: (text: string) => void): void {
  const [verb = '', name = ''] = arg.split(/\s+/);
  if (verb === 'restart') {
    if (name === '') throw new Error('Name an agent: agents restart <name>');
    print(agents.restart(name) ? `Restarting ${name}.` : `No startable agent "${name}"; see \`agents\`.`);
    return;
  }
  if (verb !== '') throw new Error('Usage: agents, or agents restart <name>');
  const list = agents.list();
  const width = Math.max('builtin'.length, ...list.map((agent) => agent.name.length));
  print(`  ${'builtin'.padEnd(width)}  ${'ready'.padEnd(13)}  the host's own loop (default)`);
  for (const agent of list) {
    const what = [agent.title, agent.version].filter((part) => part !== undefined).join(' ');
    print(`  ${agent.name.padEnd(width)}  ${agent.state.padEnd(13)}  ${what}`.trimEnd());
    const more =
      agent.state === 'needs_sign_in' && agent.signIn
        ? `${agent.reason ?? ''} Run: ${agent.signIn}`
        : agent.reason;
    if (more !== undefined && more.trim() !== '') print(`  ${' '.repeat(width)}  ${more.trim()}`);
  }
  if (list.length === 0) print('  No ACP agents are configured (see --agent, <data dir>/agents.json).');
}
