/**
 * Progress of an apply, from the engine's hooks: a live line redrawn in place
 * on a terminal, plain lines every 10% (at most two a second, at least one
 * every 5 s) in CI logs. Done, failed, skipped and not possible are counted
 * apart, each from the action's result, so the last progress line says what
 * the result line says ("done" means done).
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
  const counts: Record<ActionResult["status"], number> = { done: 0, failed: 0, skipped: 0, unsupported: 0 };
  let started = now();
  let lastPrint = 0;
  let lastDecile = -1;
  let printed = "";
  let drawn = false;
  const finished = () => counts.done + counts.failed + counts.skipped + counts.unsupported;
  const line = () => {
    const secs = Math.max(0.001, (now() - started) / 1000);
    const rate = finished() / secs;
    const parts = [
      `${counts.done} done`,
      counts.failed ? c.red(`${counts.failed} failed`) : "0 failed",
      counts.skipped ? c.yellow(`${counts.skipped} skipped`) : "0 skipped",
      ...(counts.unsupported ? [`${counts.unsupported} not possible`] : []),
    ];
    return `apply: ${finished()}/${total}: ${parts.join(", ")} (${rate.toFixed(1)}/s, ${secs.toFixed(1)} s)`;
  };
  const print = (text: string) => {
    opts.write(`${text}\n`);
    printed = text.replace(/ \([^()]*\/s, [^()]* s\)$/, "");
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
    // A new tenth, but not more than twice a second: the actions a stopped run never started are
    // counted in one burst, and a log needs their total (finish() prints it), not a line per tenth.
    const decile = Math.floor((finished() / total) * 10);
    if (force || (decile > lastDecile && now() - lastPrint >= 500) || now() - lastPrint > 5000) {
      print(line());
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
        counts[r.status]++;
        report();
      },
    },
    finish: () => {
      if (opts.quiet || total === 0) return;
      if (opts.live) {
        if (drawn) opts.write(`\r\u001b[2K${line()}\n`);
        return;
      }
      // The last line a log shows is the final count, unless the line before already said it.
      const last = line();
      if (finished() && last.replace(/ \([^()]*\/s, [^()]* s\)$/, "") !== printed) print(last);
    },
  };
}
