/**
 * The applier: executes a plan's actions through the client, each as soon as
 * the actions it depends on are done, up to `parallelism` at once. It decides
 * nothing the plan did not: failures skip what depends on them, a plan with
 * deletes it has no permission for is refused before the first write (never
 * half applied), unsupported actions are reported and never sent.
 * Progress goes through hooks; the engine never prints.
 */
import type { PimApi } from "../api/types.js";
import { PimctlError } from "../errors.js";
import type { Action, Ref } from "../plan/types.js";
import type { Plan } from "../plan/types.js";
import type { Ledger } from "../state/ledger.js";
import { recordInLedger } from "./ledger-writes.js";
import { ALLOW_DELETE_FLAG, refuseBlockedDeletes } from "../plan/delete-permission.js";
import { buildRequest, type IdOf } from "./requests.js";
import { actionGraph, chainLengths, ReadyQueue } from "./schedule.js";

export interface ApplyHooks {
  onStart?(total: number): void;
  preAction?(a: Action): void;
  postAction?(a: Action, r: ActionResult): void;
}

export type SkipCause = "dependency_failed" | "fail_fast" | "interrupted" | "token_refused" | "tenant_unreachable";

/**
 * The circuit breaker: this many failures in a row that say the tenant stopped
 * answering (connection refused or reset, no answer in time, 5xx after the
 * client's retries), with no success and no other answer between, stop the run
 * like a 401 does. Each such failure already cost the client's retries (about
 * 3 s), so 5 is a few seconds of evidence, not one unlucky request, and never
 * the whole plan failing one action at a time.
 */
export const BREAKER_THRESHOLD = 5;
/** Failures that mean the tenant is not answering, as opposed to answering "no" (4xx). */
const OUTAGE_CODES: ReadonlySet<string> = new Set(["api_connection", "api_timeout", "api_server"]);

export interface ActionResult {
  address: string;
  status: "done" | "failed" | "skipped" | "unsupported";
  error?: { code: string; message: string; request?: { method: string; path: string; status?: number } };
  reason?: string;
  skip_cause?: SkipCause;
  /** For a dependency_failed skip: the failed action it (transitively) waited for. */
  caused_by?: string;
  created_id?: number;
  /** Dry runs: the request that would be sent. */
  request?: { method: string; path: string; body?: unknown };
}

export interface ApplyReport {
  results: ActionResult[];
  /**
   * Set when the run stopped starting actions because every further request
   * would fail too: the tenant refused the token (401), or it stopped answering
   * (BREAKER_THRESHOLD outage failures in a row: `tenant_unreachable`, the
   * message is the last failure's). In-flight actions ended; `not_attempted`
   * actions were never started.
   */
  stopped_by?: { code: "api_unauthorized" | "tenant_unreachable"; message: string; not_attempted: number };
  counts: { done: number; failed: number; skipped: number; unsupported: number };
  duration_ms: number;
}

export interface ApplyOptions {
  api: PimApi;
  plan: Plan;
  /** The permission recorded in the plan; a real run with deletes and no permission is refused up front. */
  allowDelete: boolean;
  dryRun: boolean;
  parallelism: number;
  failFast: boolean;
  hooks?: ApplyHooks;
  /** Updated in memory for confirmed writes only; the caller saves it. */
  ledger?: Ledger;
  signal?: AbortSignal;
  /** Outage failures in a row that stop the run (default BREAKER_THRESHOLD). */
  breakerThreshold?: number;
}

export async function applyPlan(opts: ApplyOptions): Promise<ApplyReport> {
  const t0 = Date.now();
  if (!opts.dryRun && !opts.allowDelete) {
    refuseBlockedDeletes({ ...opts.plan, deletes_allowed: false }, "the plan", `Make it with ${ALLOW_DELETE_FLAG}, or leave the deletes out.`);
  }
  const run = new ApplyRun(opts);
  opts.hooks?.onStart?.(opts.plan.actions.length);
  await run.drain();
  const notAttempted = run.finishUnstarted();
  return run.report(Date.now() - t0, notAttempted);
}

type ActionGraph = ReturnType<typeof actionGraph>;

/** One run of applyPlan: what each action came to, the ids created, and why the run stopped starting actions. */
class ApplyRun {
  private readonly actions: Action[];
  private readonly index: Map<string, number>;
  private readonly waitingOn: ActionGraph["waitingOn"];
  private readonly dependents: ActionGraph["dependents"];
  private readonly results: Array<ActionResult | undefined>;
  private readonly createdIds: Array<number | undefined>;
  /** Dry runs: the negative id given to each create -> its address. */
  private readonly placeholders = new Map<number, string>();
  private readonly ready: ReadyQueue;
  private readonly threshold: number;
  private stopped = false;
  private refused: PimctlError | undefined;
  /** Outage failures since the last action the tenant answered; at the threshold the breaker opens. */
  private outagesInARow = 0;
  private unreachable: PimctlError | undefined;

  constructor(private readonly opts: ApplyOptions) {
    this.actions = opts.plan.actions;
    const { index, waitingOn, dependents } = actionGraph(this.actions);
    this.index = index;
    this.waitingOn = waitingOn;
    this.dependents = dependents;
    this.results = new Array(this.actions.length);
    this.createdIds = new Array(this.actions.length);
    this.threshold = Math.max(1, opts.breakerThreshold ?? BREAKER_THRESHOLD);
    this.ready = new ReadyQueue(chainLengths(dependents));
    for (let i = 0; i < this.actions.length; i++) if (waitingOn[i] === 0) this.ready.push(i);
  }

  private createdId(address: string): number | undefined {
    const i = this.index.get(address);
    return i === undefined ? undefined : this.createdIds[i];
  }

  private readonly idOf: IdOf = (ref: Ref | undefined, what: string) => {
    if (!ref) throw new PimctlError("internal", `the plan gives no id for ${what}`);
    if ("id" in ref) return ref.id;
    const id = this.createdId(ref.address);
    if (id === undefined) throw new PimctlError("internal", `${what} (${ref.address}) has no id yet`);
    return id;
  };

  private finish(i: number, r: ActionResult): void {
    this.results[i] = r;
    this.opts.hooks?.postAction?.(this.actions[i]!, r);
  }

  /** Skip everything that depends on a failed action, naming the failure each skip goes back to. */
  private skipDependents(i: number, failed: string): void {
    const address = this.actions[i]!.address;
    for (const d of this.dependents[i]!) {
      if (this.results[d]) continue;
      const reason = address === failed ? `depends on ${failed}, which failed` : `depends on ${address}, skipped because ${failed} failed`;
      this.finish(d, { address: this.actions[d]!.address, status: "skipped", skip_cause: "dependency_failed", caused_by: failed, reason });
      this.skipDependents(d, failed);
    }
  }

  private complete(i: number): void {
    for (const d of this.dependents[i]!) {
      if (--this.waitingOn[d]! === 0 && !this.results[d]) this.ready.push(d);
    }
  }

  /**
   * Starts the ready actions, up to parallelism at once, until none is left or the run stops.
   * Each finished action starts the next ready ones at once: no race over the whole in-flight
   * set per completion (80,000 of them in a large apply).
   */
  async drain(): Promise<void> {
    const parallelism = Math.max(1, this.opts.parallelism);
    let inFlight = 0;
    let crashed: { error: unknown } | undefined;
    await new Promise<void>((allDone) => {
      const pump = (): void => {
        while (this.ready.size && inFlight < parallelism && !this.stopped && !this.opts.signal?.aborted) {
          const i = this.ready.pop()!;
          if (this.results[i]) continue;
          inFlight++;
          this.run(i).then(settled, (error: unknown) => {
            // A hook that throws outside the action (preAction) is the caller's error: stop starting
            // actions, let those in flight end, then report it. (One that throws inside is a failed action.)
            crashed ??= { error };
            this.stopped = true;
            settled();
          });
        }
        if (!inFlight) allDone();
      };
      const settled = (): void => {
        inFlight--;
        pump();
      };
      pump();
    });
    if (crashed) throw crashed.error;
  }

  private async run(i: number): Promise<void> {
    const a = this.actions[i]!;
    if (a.op === "unsupported") {
      this.finish(i, { address: a.address, status: "unsupported", reason: a.notes?.join("; ") ?? "API v1 cannot do this" });
      this.complete(i);
      return;
    }
    this.opts.hooks?.preAction?.(a);
    try {
      if (this.opts.dryRun) this.describeAction(i, a);
      else await this.send(i, a);
      this.complete(i);
    } catch (e) {
      this.failed(i, a, e instanceof PimctlError ? e : new PimctlError("internal", (e as Error).message ?? String(e)));
    }
  }

  /** A dry run: the request built with every id resolved, a create given a placeholder id; nothing sent. */
  private describeAction(i: number, a: Action): void {
    const built = buildRequest(a, (ref, what) => {
      if (ref && "address" in ref && this.createdId(ref.address) === undefined) throw new PimctlError("internal", `${what} (${ref.address}) has no id yet`);
      return this.idOf(ref, what);
    });
    if (a.op === "create") {
      const fake = -(this.placeholders.size + 1);
      this.placeholders.set(fake, a.address);
      this.createdIds[i] = fake;
    }
    this.finish(i, { address: a.address, status: "done", request: describe(built, this.placeholders) });
  }

  private async send(i: number, a: Action): Promise<void> {
    const id = await buildRequest(a, this.idOf).send(this.opts.api);
    if (id !== undefined) this.createdIds[i] = id;
    recordInLedger(this.opts.ledger, a, id, this.idOf);
    this.finish(i, { address: a.address, status: "done", ...(id !== undefined ? { created_id: id } : {}) });
    this.outagesInARow = 0;
  }

  /** A failed action: its dependants skipped, and the run stopped on a refused token, an open breaker or --fail-fast. */
  private failed(i: number, a: Action, err: PimctlError): void {
    const request = err.request;
    this.finish(i, {
      address: a.address,
      status: "failed",
      error: {
        code: err.code,
        message: err.message,
        ...(request ? { request: { method: request.method, path: request.path, ...(request.status !== undefined ? { status: request.status } : {}) } } : {}),
      },
    });
    if (err.code === "api_unauthorized") {
      // A refused token refuses everything after it: stop starting actions at once
      // (what depends on this action is reported as not attempted, like the rest).
      this.refused ??= err;
      this.stopped = true;
      return;
    }
    if (!this.opts.dryRun && OUTAGE_CODES.has(err.code)) {
      if (++this.outagesInARow >= this.threshold && !this.unreachable) {
        // The tenant stopped answering: what is left would fail one by one, each after its retries.
        this.unreachable = err;
        this.stopped = true;
        this.opts.api.stopRetrying?.();
      }
    } else this.outagesInARow = 0;
    if (this.unreachable) return;
    this.skipDependents(i, a.address);
    if (this.opts.failFast) this.stopped = true;
  }

  /** Every action never started, skipped with the reason the run stopped; returns how many were not attempted after a stop. */
  finishUnstarted(): number {
    let notAttempted = 0;
    for (let i = 0; i < this.actions.length; i++) {
      if (this.results[i]) continue;
      const address = this.actions[i]!.address;
      if (this.refused || this.unreachable) notAttempted++;
      this.finish(i, { address, status: "skipped", ...this.whyNotStarted() });
    }
    return notAttempted;
  }

  private whyNotStarted(): Pick<ActionResult, "skip_cause" | "reason"> {
    if (this.refused) return { skip_cause: "token_refused", reason: "not attempted: the tenant refused the token (401) earlier in the run" };
    if (this.unreachable)
      return { skip_cause: "tenant_unreachable", reason: `not attempted: the tenant stopped answering (${this.threshold} failures in a row)` };
    return this.stopped
      ? { skip_cause: "fail_fast", reason: "not started: --fail-fast stopped the run" }
      : { skip_cause: "interrupted", reason: "not started: the run was interrupted" };
  }

  report(durationMs: number, notAttempted: number): ApplyReport {
    const ordered = this.results as ActionResult[];
    const counts = { done: 0, failed: 0, skipped: 0, unsupported: 0 };
    for (const r of ordered) counts[r.status]++;
    const { refused, unreachable } = this;
    return {
      results: ordered,
      counts,
      duration_ms: durationMs,
      ...(refused
        ? { stopped_by: { code: "api_unauthorized" as const, message: refused.message, not_attempted: notAttempted } }
        : unreachable
          ? { stopped_by: { code: "tenant_unreachable" as const, message: unreachable.format(), not_attempted: notAttempted } }
          : {}),
    };
  }
}

/** Dry-run request description: ids of records the run would create read as <id of ADDRESS>. */
function describe(built: { method: string; path: string; body?: Record<string, unknown> }, placeholders: Map<number, string>): ActionResult["request"] {
  const name = (n: number) => `<id of ${placeholders.get(n)}>`;
  const path = built.path.replace(/\/(-\d+)(?=\/|$)/g, (_m, n: string) => `/${name(Number(n))}`);
  const swap = (v: unknown): unknown =>
    typeof v === "number" && placeholders.has(v)
      ? name(v)
      : Array.isArray(v)
        ? v.map(swap)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
          : v;
  return { method: built.method, path, ...(built.body !== undefined ? { body: swap(built.body) } : {}) };
}
