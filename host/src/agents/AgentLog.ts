/**
 * Where agent lifecycle lines and each agent's stderr go (the CLI passes its logger; clients
 * never see them). `agent` names the configured agent a line is about.
 */
export type AgentLog = (level: 'debug' | 'info' | 'warn' | 'error', message: string, agent?: string) => void;
