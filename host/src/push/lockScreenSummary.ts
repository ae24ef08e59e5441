import type { Approval } from '@webbridge/contract';
import { shortText } from './shortText';

/**
 * What a push says an approval will do: the tool and the file or program it acts on, never the
 * rest of its arguments. A notification shows on a locked screen and passes through the
 * browser vendor's push service; the approval's own summary can hold file text (a patch's
 * find and replace), a command's arguments or an MCP tool's input, which stay in the app,
 * where the approval card shows them in full.
 */
export function lockScreenSummary(approval: Pick<Approval, 'tool' | 'args'>): string {
  const args = argsOf(approval.args);
  const path = typeof args.path === 'string' ? args.path : undefined;
  const program = typeof args.command === 'string' ? args.command.split(/[\\/]/).at(-1) : undefined;
  const target = path ?? program;
  return shortText(target === undefined ? approval.tool : `${approval.tool} ${target}`);
}

function argsOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
