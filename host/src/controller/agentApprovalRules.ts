import path from 'node:path';
import type { AgentToolCall, FileDiff, PermissionOption } from '@webbridge/contract';
import type { ApprovalRow } from '../db/HostStore';
import { notApplicable } from './errors';

/** The JSON of an ACP approval's `details` column. */
export interface ApprovalDetails {
  readonly options?: PermissionOption[];
  readonly diffs?: FileDiff[];
}

/** An approval's details, or undefined for one without (the host's own tools before diffs). */
export function detailsOf(row: ApprovalRow): ApprovalDetails | undefined {
  if (row.details == null) return undefined;
  try {
    return JSON.parse(row.details) as ApprovalDetails;
  } catch {
    return undefined;
  }
}

/** The agent's option an answer picks: the one named, which must agree with the decision, or the first of its kind. */
export function chooseOption(
  options: readonly PermissionOption[],
  decision: 'allow' | 'deny',
  optionId: string | undefined,
): PermissionOption {
  const allows = (o: PermissionOption) => o.kind === 'allow_once' || o.kind === 'allow_always';
  const fits = (o: PermissionOption) => (decision === 'allow' ? allows(o) : !allows(o));
  if (optionId !== undefined) {
    const named = options.find((o) => o.optionId === optionId);
    if (!named) throw notApplicable(`The agent offered no option "${optionId}".`);
    if (!fits(named)) throw notApplicable(`The option "${named.name}" does not ${decision} the call.`);
    return named;
  }
  const order = decision === 'allow' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found;
  }
  throw notApplicable(`The agent offered no way to ${decision} this call.`);
}

/** The files an allowed call is about: its locations, its diffs, and a path in its input. */
export function pathsOf(call: AgentToolCall | undefined, args: string, details: ApprovalDetails): string[] {
  const paths = [...(call?.locations.map((l) => l.path) ?? []), ...(details.diffs ?? []).map((d) => d.path)];
  try {
    const input = JSON.parse(args) as Record<string, unknown>;
    for (const key of ['filePath', 'file_path', 'path', 'filepath']) {
      const value = input[key];
      if (typeof value === 'string') paths.push(value);
    }
  } catch {
    // Not JSON: nothing more to learn from it.
  }
  return paths.filter((p) => path.isAbsolute(p)).map((p) => path.resolve(p));
}
