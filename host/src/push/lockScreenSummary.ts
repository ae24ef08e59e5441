import { type Approval, type ApprovalAsk, approvalAsk } from '@webbridge/contract';

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
 * a push passes through the browser vendor's push service.
 */
export function lockScreenSummary(approval: Pick<Approval, 'tool' | 'args'>): string {
  const ask = approvalAsk(approval);
  return ENGLISH[ask.verb].replace('{target}', () => ask.target);
}
