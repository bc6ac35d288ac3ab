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
  const actions = opts.plan.actions;
  const { index, waitingOn, dependents } = actionGraph(actions);
  const results: Array<ActionResult | undefined> = new Array(actions.length);
  const createdIds: Array<number | undefined> = new Array(actions.length);
  const placeholders = new Map<number, string>();
  opts.hooks?.onStart?.(actions.length);

  const createdId = (address: string): number | undefined => {
    const i = index.get(address);
    return i === undefined ? undefined : createdIds[i];
  };
  const idOf: IdOf = (ref: Ref | undefined, what: string) => {
    if (!ref) throw new PimctlError("internal", `the plan gives no id for ${what}`);
    if ("id" in ref) return ref.id;
    const id = createdId(ref.address);
    if (id === undefined) throw new PimctlError("internal", `${what} (${ref.address}) has no id yet`);
    return id;
  };

  const finish = (i: number, r: ActionResult): void => {
    results[i] = r;
    opts.hooks?.postAction?.(actions[i]!, r);
  };
  /** Skip everything that depends on a failed action, naming the failure each skip goes back to. */
  const skipDependents = (i: number, failed: string): void => {
    const address = actions[i]!.address;
    for (const d of dependents[i]!) {
      if (results[d]) continue;
      const reason = address === failed ? `depends on ${failed}, which failed` : `depends on ${address}, skipped because ${failed} failed`;
      finish(d, { address: actions[d]!.address, status: "skipped", skip_cause: "dependency_failed", caused_by: failed, reason });
      skipDependents(d, failed);
    }
  };

  let stopped = false;
  let refused: PimctlError | undefined;
  // Outage failures since the last action the tenant answered; at the threshold the breaker opens.
  let outagesInARow = 0;
  let unreachable: PimctlError | undefined;
  const threshold = Math.max(1, opts.breakerThreshold ?? BREAKER_THRESHOLD);
  const ready = new ReadyQueue(chainLengths(dependents));
  for (let i = 0; i < actions.length; i++) if (waitingOn[i] === 0) ready.push(i);

  const complete = (i: number): void => {
    for (const d of dependents[i]!) {
      if (--waitingOn[d]! === 0 && !results[d]) ready.push(d);
    }
  };

  const run = async (i: number): Promise<void> => {
    const a = actions[i]!;
    if (a.op === "unsupported") {
      finish(i, { address: a.address, status: "unsupported", reason: a.notes?.join("; ") ?? "API v1 cannot do this" });
      complete(i);
      return;
    }
    opts.hooks?.preAction?.(a);
    try {
      if (opts.dryRun) {
        const built = buildRequest(a, (ref, what) => {
          if (ref && "address" in ref && createdId(ref.address) === undefined) throw new PimctlError("internal", `${what} (${ref.address}) has no id yet`);
          return idOf(ref, what);
        });
        let fake: number | undefined;
        if (a.op === "create") {
          fake = -(placeholders.size + 1);
          placeholders.set(fake, a.address);
          createdIds[i] = fake;
        }
        finish(i, { address: a.address, status: "done", request: describe(built, placeholders) });
      } else {
        const built = buildRequest(a, idOf);
        const id = await built.send(opts.api);
        if (id !== undefined) createdIds[i] = id;
        recordInLedger(opts.ledger, a, id, idOf);
        finish(i, { address: a.address, status: "done", ...(id !== undefined ? { created_id: id } : {}) });
        outagesInARow = 0;
      }
      complete(i);
    } catch (e) {
      const err = e instanceof PimctlError ? e : new PimctlError("internal", (e as Error).message ?? String(e));
      finish(i, {
        address: a.address,
        status: "failed",
        error: {
          code: err.code,
          message: err.message,
          ...(err.request
            ? { request: { method: err.request.method, path: err.request.path, ...(err.request.status !== undefined ? { status: err.request.status } : {}) } }
            : {}),
        },
      });
      if (err.code === "api_unauthorized") {
        // A refused token refuses everything after it: stop starting actions at once
        // (what depends on this action is reported as not attempted, like the rest).
        refused ??= err;
        stopped = true;
        return;
      }
      if (!opts.dryRun && OUTAGE_CODES.has(err.code)) {
        if (++outagesInARow >= threshold && !unreachable) {
          // The tenant stopped answering: what is left would fail one by one, each after its retries.
          unreachable = err;
          stopped = true;
          opts.api.stopRetrying?.();
        }
      } else outagesInARow = 0;
      if (unreachable) return;
      skipDependents(i, a.address);
      if (opts.failFast) stopped = true;
    }
  };

  // Each finished action starts the next ready ones at once: no race over the whole
  // in-flight set per completion (80,000 of them in a large apply).
  const parallelism = Math.max(1, opts.parallelism);
  let inFlight = 0;
  let crashed: { error: unknown } | undefined;
  await new Promise<void>((allDone) => {
    const pump = (): void => {
      while (ready.size && inFlight < parallelism && !stopped && !opts.signal?.aborted) {
        const i = ready.pop()!;
        if (results[i]) continue;
        inFlight++;
        run(i).then(settled, (error: unknown) => {
          // A hook that throws outside the action (preAction) is the caller's error: stop starting
          // actions, let those in flight end, then report it. (One that throws inside is a failed action.)
          crashed ??= { error };
          stopped = true;
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
  let notAttempted = 0;
  for (let i = 0; i < actions.length; i++) {
    if (results[i]) continue;
    const a = actions[i]!;
    if (refused) {
      notAttempted++;
      finish(i, {
        address: a.address,
        status: "skipped",
        skip_cause: "token_refused",
        reason: "not attempted: the tenant refused the token (401) earlier in the run",
      });
    } else if (unreachable) {
      notAttempted++;
      finish(i, {
        address: a.address,
        status: "skipped",
        skip_cause: "tenant_unreachable",
        reason: `not attempted: the tenant stopped answering (${threshold} failures in a row)`,
      });
    } else {
      finish(
        i,
        stopped
          ? { address: a.address, status: "skipped", skip_cause: "fail_fast", reason: "not started: --fail-fast stopped the run" }
          : { address: a.address, status: "skipped", skip_cause: "interrupted", reason: "not started: the run was interrupted" },
      );
    }
  }
  const ordered = results as ActionResult[];
  const counts = { done: 0, failed: 0, skipped: 0, unsupported: 0 };
  for (const r of ordered) counts[r.status]++;
  return {
    results: ordered,
    counts,
    duration_ms: Date.now() - t0,
    ...(refused
      ? { stopped_by: { code: "api_unauthorized" as const, message: refused.message, not_attempted: notAttempted } }
      : unreachable
        ? { stopped_by: { code: "tenant_unreachable" as const, message: unreachable.format(), not_attempted: notAttempted } }
        : {}),
  };
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

/** Write-only values, remembered only once the tenant confirmed the write. */
function recordInLedger(ledger: Ledger | undefined, a: Action, createdId: number | undefined, idOf: IdOf): void {
  if (!ledger) return;
  const ownerKind = a.type.startsWith("brand") ? "brand" : "category";
  switch (a.type) {
    case "brand_web_id":
    case "category_web_id": {
      const key = `${ownerKind}:${idOf(a.refs.owner, "owner")}`;
      const channel = a.identity?.channel as string;
      (ledger.web_ids[key] ??= {})[channel] = a.changes.find((c) => c.field === "web_id")!.after as string;
      break;
    }
    case "brand_asset":
    case "category_asset": {
      const key = `${ownerKind}:${idOf(a.refs.owner, "owner")}`;
      if (a.op === "delete") {
        delete ledger.assets[key]?.[String(idOf(a.refs.self, "asset"))];
        break;
      }
      const assetId = a.op === "create" ? createdId : idOf(a.refs.self, "asset");
      const url = (a.changes.find((c) => c.field === "image_url")?.after ?? a.identity?.image_url) as string | undefined;
      if (assetId !== undefined && url) (ledger.assets[key] ??= {})[String(assetId)] = { image_url: url };
      break;
    }
    case "brand_assigned_attribute_set": {
      const key = String(idOf(a.refs.brand, "brand"));
      const set = a.identity?.attribute_set as string;
      const list = (ledger.brand_attribute_sets[key] ??= []);
      if (!list.includes(set)) list.push(set);
      list.sort();
      break;
    }
    case "brand":
    case "category": {
      // A record deleted, or one just created: under a created id the ledger may still hold what was
      // written to the record that had it before (a tenant restored, an id given again), not to this one.
      const id = a.op === "create" ? createdId : a.op === "delete" ? idOf(a.refs.self, a.type) : undefined;
      if (id === undefined) break;
      delete ledger.web_ids[`${a.type}:${id}`];
      delete ledger.assets[`${a.type}:${id}`];
      if (a.type === "brand") delete ledger.brand_attribute_sets[String(id)];
      break;
    }
  }
}
