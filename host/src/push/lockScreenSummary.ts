import { type ApprovalAsk, type AskedApproval, approvalAsk } from '@webbridge/contract';

/** The English of each ask; pages and service workers say it in their own language. */
const ENGLISH: Readonly<Record<ApprovalAsk['verb'], string>> = {
  write: 'Write {target}?',
  edit: 'Edit {target}?',
  run: 'Run `{target}`?',
  use: 'Use {target}?',
};

/**
 * What a push says an approval waits for, in English: "Write notes.md?", "Run `npm`?", "Use
 * github__create_issue?" ({@link approvalAsk}). Only the host's own tools name a file or a
 * program; never file text, a command's arguments or an MCP tool's input, which stay in the
 * app, where the approval card shows them in full. A notification shows on a locked screen and
 * a push passes through the browser vendor's push service. An ACP agent's question names its
 * diff's file, else the agent (`agent`), never the agent's title for the call.
 */
export function lockScreenSummary(approval: AskedApproval, agent?: string): string {
  const ask = approvalAsk(approval, agent);
  return ENGLISH[ask.verb].replace('{target}', () => ask.target);
}
