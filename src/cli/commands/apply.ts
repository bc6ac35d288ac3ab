import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CommandModule } from "yargs";
import { apply } from "../../workflows.js";
import { renderPlan } from "../../render/index.js";
import { createProgress } from "../../render/progress.js";
import { hasChanges, type Plan } from "../../plan/types.js";
import { PimctlError } from "../../errors.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import { plural } from "../../plural.js";
import type { Io } from "../io.js";
import { appendStepSummary } from "../pipeline-output.js";
import { renderApplySummary } from "../../render/apply-summary.js";
import { colorFor, projectOptions, say, withProjectOptions, withRefresh, type GlobalArgs } from "../options.js";
import { publicPlan } from "../../plan/file.js";
import { parseDuration } from "../../state/backends/index.js";

interface ApplyArgs extends GlobalArgs {
  plan?: string;
  "auto-approve"?: boolean;
  "allow-delete"?: boolean;
  "dry-run"?: boolean;
  "fail-fast"?: boolean;
  report?: string;
  "backup-profile"?: number;
  target?: string[];
  exclude?: string[];
  "lock-timeout"?: string;
  "if-applied"?: "ok" | "fail";
}

export function applyCommand(io: Io): CommandModule<object, ApplyArgs> {
  return {
    command: "apply [plan]",
    describe: "Make the tenant match the manifests (or apply a saved plan)",
    builder: (y) =>
      withRefresh(withProjectOptions(y))
        .positional("plan", { type: "string", describe: "A plan saved with 'pimctl plan --out FILE'; refused when the tenant changed since" })
        .option("auto-approve", { type: "boolean", describe: "Apply without asking (needed without a terminal, unless a saved plan is given)" })
        .option("allow-delete", { type: "boolean", describe: "Permit the deletes of the plan apply makes now (a saved plan carries its own permission, from 'plan --allow-delete'); without it a plan with deletes is refused before any write" })
        .option("dry-run", { type: "boolean", describe: "Resolve ids and build every request, print them, send no write" })
        .option("fail-fast", { type: "boolean", describe: "Stop at the first failed action (default: skip only what depends on it)" })
        .option("report", { type: "string", describe: "Write the run's report (done, failed, skipped, verification) as JSON" })
        .option("backup-profile", { type: "number", describe: "Export profile id: run and download an export before the first write" })
        .option("target", { type: "string", array: true, describe: "Limit to this address (and what it needs); repeatable" })
        .option("exclude", { type: "string", array: true, describe: "Leave out an address or a whole kind; repeatable" })
        .option("lock-timeout", {
          type: "string",
          describe: "Wait this long (30s, 5m, 1h) for another run's state lock instead of failing at once",
        })
        .option("if-applied", {
          choices: ["ok", "fail"] as const,
          describe: "A saved plan the tenant already matches (a re-run of the job that applied it): ok says so and exits 0 (default); fail exits 5",
        })
        .example("$0 apply --tenant staging", "Plan, show, ask, apply")
        .example("$0 apply plan.json", "Apply a reviewed, saved plan (CI on merge)")
        .example("$0 apply --auto-approve --allow-delete", "Unattended, deletes included")
        .example("$0 apply plan.json --lock-timeout 5m", "Wait up to 5 minutes for a running apply to finish") as never,
    handler: async (args) => {
      const color = colorFor(args, io);
      if (!args.plan && !args["auto-approve"] && !args["dry-run"] && !io.interactive) {
        throw new PimctlError("usage", "refusing to apply without confirmation: no terminal to ask on. Pass --auto-approve, or apply a saved plan file");
      }
      const progress = createProgress({ write: io.stderr, live: io.stderrIsTTY, color, quiet: args.quiet === true });
      const confirm = async (p: Plan): Promise<boolean> => {
        if (!hasChanges(p)) return true;
        if (args.plan || args["auto-approve"] || args["dry-run"]) {
          if (!args.quiet) io.stderr(renderPlan(publicPlan(p), "text", { color, compact: p.actions.length > 200 }));
          return true;
        }
        io.stderr(renderPlan(publicPlan(p), "text", { color, compact: p.actions.length > 200 }));
        const answer = await io.ask("\nApply these changes? Only 'yes' is accepted: ");
        return answer.trim() === "yes";
      };
      // Ctrl-C, and SIGTERM (what CI runners send on cancel), stop starting new actions;
      // what is in flight finishes, the ledger is saved, the lock released, the report written.
      const stop = new AbortController();
      const onInterrupt = (signal: NodeJS.Signals) => {
        io.stderr(`\nInterrupted (${signal}): finishing the requests in flight, then stopping (again to quit at once).\n`);
        stop.abort();
      };
      const STOP_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM"];
      // SIGTERM from the start (a cancelled pipeline may stop us while the lock is held for the
      // backup); Ctrl-C once writing starts (at the question, Ctrl-C is a "no").
      process.once("SIGTERM", onInterrupt);
      const hooks = {
        ...progress.hooks,
        onStart: (total: number) => {
          process.once("SIGINT", onInterrupt);
          progress.hooks.onStart?.(total);
        },
      };
      const result = await apply({
        signal: stop.signal,
        ...projectOptions(args, io),
        ...(args.plan ? { planFile: path.resolve(io.cwd, args.plan) } : {}),
        ...(args.target ? { targets: args.target } : {}),
        ...(args.exclude ? { excludes: args.exclude } : {}),
        ...(args["lock-timeout"] ? { lockTimeoutMs: parseDuration(args["lock-timeout"]) } : {}),
        ...(args["if-applied"] ? { ifApplied: args["if-applied"] } : {}),
        warn: (line: string) => io.stderr(`warning: ${line}\n`),
        allowDelete: args["allow-delete"] === true,
        dryRun: args["dry-run"] === true,
        failFast: args["fail-fast"] === true,
        ...(args["backup-profile"] !== undefined ? { backupProfile: args["backup-profile"] } : {}),
        hooks,
        confirm,
      }).finally(() => {
        for (const sig of STOP_SIGNALS) process.off(sig, onInterrupt);
      });
      progress.finish();
      if (result.aborted) {
        io.stderr("Apply cancelled; nothing was changed.\n");
        throw new ExitWith(EXIT.error);
      }
      if (result.alreadyApplied) {
        say(args, io, `${result.alreadyApplied}. Nothing to do.`);
        return;
      }
      if (!hasChanges(result.plan)) {
        say(args, io, "No changes. The tenant matches the manifests.");
        return;
      }
      const report = result.report!;
      if (args["dry-run"]) {
        for (const r of report.results) if (r.request) io.stdout(`${r.request.method} ${r.request.path}${r.request.body === undefined ? "" : ` ${JSON.stringify(r.request.body)}`}\n`);
        say(args, io, `Dry run: ${plural(report.results.filter((r) => r.request).length, "request")} built, none sent.`);
        const blocked = result.plan.actions.filter((a) => a.flags.blocked).length;
        if (blocked) say(args, io, `Note: the plan has ${plural(blocked, "blocked delete")}; a real apply refuses it (make the plan with --allow-delete).`);
        return;
      }
      if (result.backupFile) say(args, io, `Backup export saved to ${result.backupFile}.`);
      for (const r of report.results) {
        if (r.status === "failed") io.stderr(`failed: ${r.address}: ${r.error?.message ?? "unknown error"}\n`);
        else if (r.status === "skipped" && r.skip_cause !== "token_refused") say(args, io, `skipped: ${r.address}: ${r.reason ?? ""}`);
      }
      const v = result.verification;
      if (v?.error) io.stderr(`Verification: the read after the writes failed, so nothing was checked (exit 4): ${v.error}\n`);
      if (v && v.mismatches.length) {
        io.stderr(`Verification: the tenant did not store ${plural(v.mismatches.length, "change")} as written (exit 4):\n`);
        for (const m of v.mismatches) io.stderr(`  ${m.address}: ${m.fields.join(", ")}\n`);
      }
      if (report.stopped_by) {
        io.stderr(
          `Stopped: ${report.stopped_by.message}\nNo action was started after the 401; ${report.stopped_by.not_attempted} action(s) were not attempted and the tenant was not verified. Fix the token, then run apply again: it finishes the job without duplicates.\n`,
        );
      }
      const c = report.counts;
      say(args, io, `Apply: ${c.done} done, ${c.failed} failed, ${c.skipped} skipped, ${c.unsupported} not possible through API v1 (${(report.duration_ms / 1000).toFixed(1)} s).`);
      appendStepSummary(io, () => renderApplySummary(result.plan.tenant, report, v));
      if (args.report) await writeFile(path.resolve(io.cwd, args.report), `${JSON.stringify({ plan_summary: result.plan.summary, ...report, verification: v }, null, 2)}\n`);
      // Failed, skipped, interrupted or not verified: the run did not do all it was asked to.
      if (c.failed > 0 || c.skipped > 0 || (v && (v.mismatches.length > 0 || v.error !== undefined))) throw new ExitWith(EXIT.partial);
    },
  };
}
