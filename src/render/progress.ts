/**
 * Progress of an apply, from the engine's hooks: a live line redrawn in place
 * on a terminal, plain lines every 10% (or every 5 s) in CI logs.
 */
import type { Action } from "../plan/types.js";
import type { ActionResult, ApplyHooks } from "../apply/index.js";
import { palette } from "./common.js";

export function createProgress(opts: { write: (text: string) => void; live: boolean; color: boolean; quiet: boolean; now?: () => number }): {
  hooks: ApplyHooks;
  finish: () => void;
} {
  const c = palette(opts.color);
  const now = opts.now ?? Date.now;
  let total = 0;
  let done = 0;
  let failed = 0;
  let started = now();
  let lastPrint = 0;
  let lastDecile = -1;
  let drawn = false;
  const line = () => {
    const secs = Math.max(0.001, (now() - started) / 1000);
    const rate = done / secs;
    return `apply: ${done}/${total} done${failed ? `, ${c.red(`${failed} failed`)}` : ""} (${rate.toFixed(1)}/s, ${secs.toFixed(1)} s)`;
  };
  const report = (force = false) => {
    if (opts.quiet || total === 0) return;
    if (opts.live) {
      if (force || now() - lastPrint > 100) {
        opts.write(`\r\u001b[2K${line()}`);
        drawn = true;
        lastPrint = now();
      }
      return;
    }
    const decile = Math.floor((done / total) * 10);
    if (force || decile > lastDecile || now() - lastPrint > 5000) {
      opts.write(`${line()}\n`);
      lastDecile = decile;
      lastPrint = now();
    }
  };
  return {
    hooks: {
      onStart: (n) => {
        total = n;
        started = now();
      },
      postAction: (_a: Action, r: ActionResult) => {
        done++;
        if (r.status === "failed") failed++;
        report();
      },
    },
    finish: () => {
      if (opts.quiet || total === 0) return;
      if (opts.live) {
        if (drawn) opts.write(`\r\u001b[2K${line()}\n`);
      } else if (done && lastDecile < 10) opts.write(`${line()}\n`);
    },
  };
}
