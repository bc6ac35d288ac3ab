/**
 * The fault knobs of a running emulator: injected latency, a rate limit per tenant, random
 * faults drawn from a seeded generator (reproducible runs) and targeted faults a test
 * injects for one method, route or tenant. `pimctl emulator --latency-ms`, `--fail-rate`,
 * `--rate-limit`, `--fault-seed` and `--fault-modes` set them at the start; `setFaults`,
 * `injectFaults` and the control surface change them while it runs.
 */
import type { EmulatorOptions, FaultMode, TargetedFault } from "./types.js";

/** Small, seedable PRNG so random faults are reproducible (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The knobs `setFaults` takes (each left as it is when absent). */
export type FaultSettings = Pick<EmulatorOptions, "latencyMs" | "failRate" | "rateLimit" | "faultSeed" | "faultModes">;

/** What a request drew: the fault's mode and, for a 429, its Retry-After. */
export interface DrawnFault {
  mode: FaultMode;
  retryAfter: string;
}

/** Requests a tenant made in the current wall-clock second (the rate limit's window). */
export interface RateWindow {
  second: number;
  count: number;
}

type PendingFault = TargetedFault & { left: number };

export class FaultKnobs {
  private latencyMs: number;
  private failRate: number;
  private rateLimit: number;
  private random: () => number;
  private modes: FaultMode[];
  private targeted: PendingFault[] = [];
  /** How late timers fire, learnt from the holds so far (see hold()). */
  private timerLateness = 0;

  constructor(o: FaultSettings) {
    this.latencyMs = o.latencyMs ?? 0;
    this.failRate = o.failRate ?? 0;
    this.rateLimit = o.rateLimit ?? 0;
    this.random = prng(o.faultSeed ?? 1);
    this.modes = o.faultModes?.length ? o.faultModes : ["error500", "drop"];
  }

  set(f: FaultSettings): void {
    if (f.latencyMs !== undefined) this.latencyMs = f.latencyMs;
    if (f.failRate !== undefined) this.failRate = f.failRate;
    if (f.rateLimit !== undefined) this.rateLimit = f.rateLimit;
    if (f.faultSeed !== undefined) this.random = prng(f.faultSeed);
    if (f.faultModes?.length) this.modes = f.faultModes;
  }

  inject(faults: TargetedFault[]): void {
    this.targeted.push(...faults.map((f) => ({ ...f, left: f.times ?? 1 })));
  }

  /** Targeted faults not yet fired (for one tenant, or all). */
  left(tenant?: string): number {
    return this.targeted.filter((f) => !tenant || f.tenant === tenant).reduce((n, f) => n + f.left, 0);
  }

  /** No targeted faults, no random ones and no rate limit (the latency stays). */
  clear(): void {
    this.targeted = [];
    this.failRate = 0;
    this.rateLimit = 0;
  }

  /**
   * Injected latency, held for `latencyMs` on average. Timers fire late (by up to a
   * millisecond and more under load), which made a 5 ms latency cost 6.3 ms a
   * request and every benchmark bound (requests / parallelism x latency) look
   * 26 % worse than any client could do. The lateness is learnt and asked off.
   */
  async hold(): Promise<void> {
    const ms = this.latencyMs;
    if (ms <= 0) return;
    const ask = Math.max(0, ms - this.timerLateness);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, ask));
    const held = performance.now() - t0;
    this.timerLateness = Math.min(ms, Math.max(0, this.timerLateness + 0.05 * (held - ms)));
  }

  /** Counts a request in its tenant's window: whether it goes beyond the rate limit (per tenant, per second). */
  overRateLimit(window: RateWindow): boolean {
    if (this.rateLimit <= 0) return false;
    const second = Math.floor(Date.now() / 1000);
    if (window.second !== second) Object.assign(window, { second, count: 0 });
    return ++window.count > this.rateLimit;
  }

  /** The fault this request meets, if any: a targeted one first, else a random one at the fail rate. */
  draw(method: string, route: string, tenant: string): DrawnFault | undefined {
    const targeted = this.takeTargeted(method, route, tenant);
    let mode = targeted?.mode;
    if (!mode && this.failRate > 0 && this.random() < this.failRate) mode = this.modes[Math.floor(this.random() * this.modes.length)] ?? "error500";
    if (!mode) return undefined;
    // A dropped answer after commit only means something for writes; a read is simply dropped.
    if (mode === "drop_after_commit" && method === "GET") mode = "drop";
    return { mode, retryAfter: targeted?.retryAfter ?? "1" };
  }

  private takeTargeted(method: string, route: string, tenant: string): PendingFault | undefined {
    const i = this.targeted.findIndex(
      (f) => (!f.method || f.method === method) && (!f.route || f.route === route) && (!f.tenant || f.tenant === tenant) && f.left > 0,
    );
    if (i === -1) return undefined;
    const f = this.targeted[i]!;
    f.left--;
    if (f.left <= 0) this.targeted.splice(i, 1);
    return f;
  }
}
