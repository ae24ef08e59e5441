/**
 * An agent as the snapshot lists it. TEMPORARY local mirror of the contract's `Agent`
 * (contract/src/agents.ts, `agentSchema`), replaced by the import once that lands.
 */
export interface AgentStatus {
  readonly name: string;
  readonly title?: string;
  readonly version?: string;
  readonly builtin: boolean;
  readonly state: 'idle' | 'starting' | 'ready' | 'failed' | 'needs_sign_in';
  readonly reason?: string;
  readonly signIn?: string;
}
