import { type Snapshot, snapshotSchema } from '@webbridge/contract';
import { checkRaw, checkResponse, type Observed } from './checkResponse';
import type { Plan, Step } from './plans';
import { FRESH_PREFIX, type Resolved, resolvePlan } from './resolvePlan';
import { appliedViolations, comparable, snapshotViolations } from './snapshotInvariants';
import { sendRaw, type WireClient, type WireResponse } from './wire';

/** The host a fuzzer drives. */
export interface FuzzTarget {
  readonly port: number;
  readonly code: string;
  /** The host's upload limit (set small, so the boundary sizes are cheap to send). */
  readonly uploadLimit: number;
}

/** One broken rule, with the request that broke it. */
export interface FuzzFailure {
  readonly request: string;
  readonly status: number;
  readonly violations: readonly string[];
}

/**
 * How many action ids the fuzzer trusts the host to remember: the host keeps at least 1,000 per
 * client, so the outcome of an id older than this may have been forgotten.
 */
const REMEMBERED_IDS = 500;

/**
 * Sends plans to a real host and checks every answer and the state around it. Lone requests
 * get the exact checks (a refused action changes nothing, an applied one did all it says, a
 * retried action id repeats its first outcome); bursts of concurrent requests get the checks
 * that hold in any interleaving. Failures are collected, not thrown, so one run can report
 * them all.
 */
export class Fuzzer {
  requests = 0;
  applied = 0;
  readonly failures: FuzzFailure[] = [];
  readonly statuses = new Map<string, number>();
  private snapshot: Snapshot | undefined;
  /** Something may have changed since `snapshot` was read. */
  private dirty = true;
  /** The highest sessionRevision among the answers received so far. */
  private floor = -1;
  private instanceId: string | undefined;
  private previousInstanceId: string | undefined;
  private lastEventId: string | undefined;
  private serial = 0;
  private readonly actionIds: string[] = [];
  /** First outcome of each action id the host dispatched: action name and status. */
  private readonly outcomes = new Map<string, { action: string; status: number; at: number }>();
  /** Requests the dispatcher may have remembered an id for (the host's count, as near as known). */
  private dispatchedIds = 0;
  /** Every action id sent in a schema-valid action. */
  private readonly sentIds = new Set<string>();

  constructor(
    private readonly target: FuzzTarget,
    private readonly client: WireClient,
  ) {}

  /** Runs one step; returns the number of failures it added. */
  async run(step: Step): Promise<number> {
    const before = this.failures.length;
    if (step.kind === 'one') await this.one(step.plan);
    else await this.burst(step.plans);
    return this.failures.length - before;
  }

  /**
   * The host was restarted on the same data dir: a new instanceId is due, the action ids of the
   * old run are forgotten, and sessionRevision must continue from where it was, never repeat.
   */
  newRun(): void {
    this.previousInstanceId = this.instanceId;
    this.instanceId = undefined;
    this.dirty = true;
    this.lastEventId = undefined;
    this.outcomes.clear();
    this.sentIds.clear();
    this.actionIds.length = 0;
  }

  /** GET /api/locale must still answer: the host did not crash or wedge. */
  async alive(): Promise<void> {
    const response = await this.client.send({
      method: 'GET',
      target: '/api/locale',
      headers: [['Host', `127.0.0.1:${this.target.port}`]],
    });
    this.count('alive', response.status);
    if (response.status !== 200)
      this.fail('GET /api/locale (is the host alive?)', response.status, [
        `answered ${response.status} ${response.error ?? ''}`,
      ]);
  }

  private async one(plan: Plan): Promise<void> {
    const mutating = plan.route === 'action' || plan.route === 'upload' || plan.route === 'misc';
    const before = mutating ? await this.quiet() : await this.current();
    const resolved = this.resolve(plan, before);
    const replay = this.replayOf(resolved);
    const observed = await this.send(resolved, true);
    const status = observed.status;
    if (!mutating || !resolved.mutating) return;
    const applied = status === 200 || status === 201;
    if (applied && !replay) this.applied++;
    if (applied) this.dirty = true;
    const after = await this.quiet();
    // Applied under an id sent before: a retry answered from memory, or a fresh apply; unknown.
    if (applied && replay === 'uncertain') return;
    if (!applied || replay) {
      if (comparable(after) !== comparable(before))
        this.fail(resolved.label, status, [
          typeof replay === 'object'
            ? `a retried action id (first answered ${replay.status}) changed the state`
            : `a refused request (${status}) changed the state`,
          ...diff(before, after),
        ]);
      // An id first applied (200) is answered with its first result again once it reaches the
      // dispatcher (a clean head: a foreign Host or a wrong code is refused before).
      if (
        typeof replay === 'object' &&
        replay.status === 200 &&
        resolved.clean &&
        replay.action === resolved.action?.action &&
        status !== 200
      )
        this.fail(resolved.label, status, [`a retried action id answered ${status}, first ${replay.status}`]);
      return;
    }
    if (resolved.route === 'action' && resolved.action) {
      const v = appliedViolations(resolved.action, observed.result, before, after);
      if (v.length > 0) this.fail(resolved.label, status, v);
    }
    if (resolved.route === 'upload' && observed.result) {
      const { attachment } = observed.result as { attachment: { id: string } };
      const named = new URLSearchParams(resolved.wire.target.split('?')[1]).get('conversationId');
      if (
        (named === null || named === after.conversationId) &&
        !after.conversations.pending.some((a) => a.id === attachment.id)
      )
        this.fail(resolved.label, status, ['an uploaded file is not pending in its conversation']);
    }
  }

  private async burst(plans: readonly Plan[]): Promise<void> {
    const state = await this.current();
    // Resolved one by one so fresh action ids differ; sent all at once.
    const resolved = plans.map((plan) => this.resolve(plan, state));
    const retried = resolved.some((r) => this.replayOf(r) !== undefined);
    const results = await Promise.all(resolved.map((r) => this.send(r, false)));
    if (results.some((r) => r.status === 200 || r.status === 201)) this.dirty = true;
    // Where nothing was applied, nothing may have changed, whatever the interleaving.
    const mutated = resolved.some(
      (r, i) => r.mutating && (results[i]?.status === 200 || results[i]?.status === 201),
    );
    const after = await this.quiet();
    if (!mutated && !retried && comparable(after) !== comparable(state)) {
      this.fail(`burst of ${plans.length}: ${resolved.map((r) => r.label.slice(0, 80)).join(' | ')}`, 0, [
        'a burst in which nothing was applied changed the state',
        ...diff(state, after),
      ]);
    }
  }

  private resolve(plan: Plan, snapshot: Snapshot): Resolved {
    this.serial++;
    const resolved = resolvePlan(plan, {
      port: this.target.port,
      code: this.target.code,
      uploadLimit: this.target.uploadLimit,
      snapshot,
      actionIds: this.actionIds,
      serial: this.serial,
      lastEventId: this.lastEventId,
    });
    return resolved;
  }

  /**
   * What the host knows of this request's action id. The fuzzer's own fresh ids (`fuzz-…`) are
   * tracked exactly: `remembered` says the host surely still holds the first outcome. Any other
   * id sent before (generated ids collide: boundary ids are all `x`) is `uncertain`: it may be
   * a retry the host answers from memory, or one it forgot.
   */
  private replayOf(
    r: Resolved,
  ): { action: string; status: number; remembered: boolean } | 'uncertain' | undefined {
    const id = r.action?.actionId;
    if (id === undefined || r.action?.action === 'refreshMedia') return undefined;
    const seen = this.outcomes.get(id);
    if (seen && this.dispatchedIds - seen.at < REMEMBERED_IDS) return { ...seen, remembered: true };
    return this.sentIds.has(id) ? 'uncertain' : undefined;
  }

  /** Sends, checks and records one request; returns its status and what it showed. */
  private async send(r: Resolved, exact: boolean): Promise<Observed & { status: number }> {
    const floor = this.floor;
    if (r.route === 'raw') {
      const answer = await sendRaw(this.target.port, r.wire.body ?? Buffer.alloc(0));
      const violations = checkRaw(answer.bytes).map((v) =>
        answer.bytes.length === 0 ? `${v} (${answer.closed ? 'closed' : 'still open after 1.5 s'})` : v,
      );
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer.bytes.toString('latin1'))?.[1] ?? 0);
      this.count('raw', status);
      if (violations.length > 0) this.fail(r.label, status, violations);
      return { status, violations, identities: [] };
    }
    const response: WireResponse = await this.client.send(r.wire);
    this.count(r.route, response.status);
    const observed = checkResponse(r, response, exact);
    const violations = [...observed.violations];
    for (const identity of observed.identities) {
      if (this.instanceId === undefined) {
        this.instanceId = identity.instanceId;
        if (identity.instanceId === this.previousInstanceId)
          violations.push('a new run kept the old instanceId');
      }
      if (identity.instanceId !== this.instanceId)
        violations.push(`instanceId changed to ${identity.instanceId} without a restart`);
      if (identity.sessionRevision < floor)
        violations.push(`sessionRevision went back from ${floor} to ${identity.sessionRevision}`);
      this.floor = Math.max(this.floor, identity.sessionRevision);
    }
    if (observed.snapshot) violations.push(...snapshotViolations(observed.snapshot));
    if (observed.lastEventId !== undefined) this.lastEventId = observed.lastEventId;
    const id = r.action?.actionId;
    // The host remembers an id the dispatcher answered (a clean head; 400 is left out, as it may
    // be "already used for another action", which is not remembered anew); never refreshMedia's.
    // Every schema-valid action counts towards the host's bound, so the window errs short.
    if (id !== undefined && r.action && r.action.action !== 'refreshMedia') {
      this.dispatchedIds++;
      const dispatched = r.clean && [200, 403, 404, 409, 422].includes(response.status);
      if (dispatched && id.startsWith(FRESH_PREFIX) && !this.outcomes.has(id)) {
        this.outcomes.set(id, { action: r.action.action, status: response.status, at: this.dispatchedIds });
        this.actionIds.push(id);
      }
      this.sentIds.add(id);
    }
    if (violations.length > 0) this.fail(r.label, response.status, violations, response);
    return { ...observed, violations, status: response.status };
  }

  /** The latest state, read again only when something may have changed. */
  private async current(): Promise<Snapshot> {
    if (this.snapshot && !this.dirty) return this.snapshot;
    return this.readState();
  }

  /** The state once no reply is streaming (a refused action is judged against a still host). */
  private async quiet(): Promise<Snapshot> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const state = await this.current();
      if (state.conversations.run.state !== 'streaming') return state;
      if (Date.now() > deadline) {
        this.fail('waiting for the reply to finish', 200, ['a reply was still streaming after 10 s']);
        return state;
      }
      this.dirty = true;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  private async readState(): Promise<Snapshot> {
    const r: Resolved = {
      wire: {
        method: 'GET',
        target: '/api/state',
        headers: [
          ['Host', `127.0.0.1:${this.target.port}`],
          ['Authorization', `Bearer ${this.target.code}`],
        ],
      },
      route: 'state',
      label: 'GET /api/state (the fuzzer reading the state)',
      clean: true,
      mutating: false,
    };
    const observed = await this.send(r, true);
    if (!observed.snapshot)
      throw new Error(`cannot read the state: ${observed.status} ${observed.violations.join('; ')}`);
    this.snapshot = snapshotSchema.parse(observed.snapshot);
    this.dirty = false;
    return this.snapshot;
  }

  private count(route: string, status: number): void {
    this.requests++;
    const key = `${route} ${status}`;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }

  private fail(
    request: string,
    status: number,
    violations: readonly string[],
    response?: WireResponse,
  ): void {
    if (violations.length === 0) return;
    const body = response?.body.length ? ` → ${response.body.toString('utf8').slice(0, 200)}` : '';
    this.failures.push({ request: `${request}${body}`, status, violations });
  }
}

/** The top-level parts of two snapshots that differ, for a readable report. */
function diff(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  const keys = ['sessionRevision', 'conversationId', 'projectId'] as const;
  for (const key of keys) if (a[key] !== b[key]) out.push(`${key}: ${a[key]} → ${b[key]}`);
  const groups = ['conversations', 'projects', 'models', 'tools', 'approvals', 'settings'] as const;
  for (const group of groups) {
    const x = JSON.stringify(a[group], (k, v: unknown) => (k === 'media' ? undefined : v));
    const y = JSON.stringify(b[group], (k, v: unknown) => (k === 'media' ? undefined : v));
    if (x !== y) out.push(`${group} changed: ${x.slice(0, 160)} → ${y.slice(0, 160)}`);
  }
  return out;
}
