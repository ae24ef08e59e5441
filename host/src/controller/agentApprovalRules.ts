import path from 'node:path';
import type { AgentToolCall, Approval, PermissionOption } from '@webbridge/contract';
import { notApplicable } from './errors';

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
export function pathsOf(
  call: AgentToolCall | undefined,
  approval: Pick<Approval, 'args' | 'diffs'>,
): string[] {
  const paths = [...(call?.locations.map((l) => l.path) ?? []), ...(approval.diffs ?? []).map((d) => d.path)];
  try {
    const input = JSON.parse(approval.args) as Record<string, unknown>;
    for (const key of ['filePath', 'file_path', 'path', 'filepath']) {
      const value = input[key];
      if (typeof value === 'string') paths.push(value);
    }
  } catch {
    // Not JSON: nothing more to learn from it.
  }
  return paths.filter((p) => path.isAbsolute(p)).map((p) => path.resolve(p));
}
