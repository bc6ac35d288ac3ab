import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CommandModule } from "yargs";
import { apply } from "../../workflows/index.js";
import { renderPlan } from "../../render/index.js";
import { createProgress } from "../../render/progress.js";
import { hasChanges, type Plan } from "../../plan/types.js";
import { PimctlError } from "../../errors.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import { plural } from "../../plural.js";
import type { Io } from "../io.js";
import { appendStepSummary } from "../pipeline-output.js";
import { notDoneLines, renderApplySummary } from "../../render/apply-summary.js";
import { BREAKER_THRESHOLD } from "../../apply/index.js";
import { ALLOW_EMPTY_FILES_OPTION, colorFor, durationOption, projectOptions, say, warnLine, withProjectOptions, withRefresh } from "../options.js";
import { bundled, withBundle, type BundleArgs } from "../bundle.js";
import { escapeControls, jsonText } from "../../base/controls.js";
import { publicPlan } from "../../planfile/file.js";
import { reportStateProblems, stateProblems } from "../apply-report.js";
import { applyRollout, rolloutSource, type RolloutArgs } from "./apply-rollout.js";
import { refuseUnwritable } from "../output-files.js";

interface ApplyArgs extends BundleArgs, RolloutArgs {
  plan?: string;
}

/** Above this many actions the plan apply shows is the summary unless --compact asks for every line. */
const FULL_PLAN_LIMIT = 200;

export function applyCommand(io: Io): CommandModule<object, ApplyArgs> {
  return {
    command: "apply [plan]",
    describe: "Make the tenant match the manifests (or apply a saved plan)",
    builder: (y) =>
      withBundle(withRefresh(withProjectOptions(y)))
        .positional("plan", { type: "string", describe: "A plan saved with 'pimctl plan --out FILE'; refused when the tenant changed since" })
        .option("auto-approve", { type: "boolean", describe: "Apply without asking (needed without a terminal, unless a saved plan is given)" })
        .option("allow-delete", {
          type: "boolean",
          describe:
            "Permit the deletes of the plan apply makes now (a saved plan carries its own permission, from 'plan --allow-delete'); without it a " +
            "plan with deletes is refused before any write",
        })
        .option("allow-empty-files", ALLOW_EMPTY_FILES_OPTION)
        .option("dry-run", { type: "boolean", describe: "Resolve ids and build every request, print them, send no write" })
        .option("fail-fast", { type: "boolean", describe: "Stop at the first failed action (default: skip only what depends on it)" })
        .option("report", { type: "string", describe: "Write the run's report (done, failed, skipped, verification) as JSON" })
        .option("backup-profile", { type: "number", describe: "Export profile id: run and download an export before the first write" })
        .option("target", { type: "string", array: true, describe: "Limit to this address (and what it needs); repeatable" })
        .option("exclude", { type: "string", array: true, describe: "Leave out an address or a whole kind; repeatable" })
        .option("compact", { type: "boolean", describe: "Show the plan one line per action, no field details" })
        .option("summary", {
          type: "boolean",
          describe: `Show the plan as counts per kind and the destructive lines only (the default above ${FULL_PLAN_LIMIT} actions)`,
        })
        .option("lock-timeout", {
          type: "string",
          describe: "Wait this long (30s, 5m, 1h) for another run's state lock instead of failing at once",
        })
        .option("max-failed-tenants", {
          type: "number",
          describe: "A rollout (--tenant selecting two or more): stop starting tenants once this many did not converge (default 1: at the first)",
        })
        .option("tenant-parallelism", { type: "number", describe: "A rollout: tenants of a wave applied at once (default 4)" })
        .option("format", {
          alias: "f",
          choices: ["text", "json"] as const,
          describe: "A rollout: json prints its result (each tenant's outcome, exit code and report) on stdout; the table goes to stderr either way",
        })
        .option("if-applied", {
          choices: ["ok", "fail"] as const,
          describe: "A saved plan the tenant already matches (a re-run of the job that applied it): ok says so and exits 0 (default); fail exits 5",
        })
        .example("$0 apply --tenant staging", "Plan, show, ask, apply")
        .example("$0 apply plan.json", "Apply a reviewed, saved plan (CI on merge)")
        .example("$0 apply --auto-approve --allow-delete", "Unattended, deletes included")
        .example("$0 apply --tenant 'prod-*' --auto-approve", "Roll out to every prod tenant, in the config's rollout: waves")
        .example("$0 apply plan.json --lock-timeout 5m", "Wait up to 5 minutes for a running apply to finish") as never,
    handler: bundled(io, "apply", async (args, bundle) => {
      const color = colorFor(args, io);
      if (!args.plan && !args["auto-approve"] && !args["dry-run"] && !io.interactive) {
        throw new PimctlError("usage", "refusing to apply without confirmation: no terminal to ask on. Pass --auto-approve, or apply a saved plan file");
      }
      await refuseUnwritable(io.cwd, { report: args.report });
      const source = await rolloutSource(args, io);
      if (source) return applyRollout(args, io, source, bundle.options);
      const progress = createProgress({ write: io.stderr, live: io.stderrIsTTY, color, quiet: args.quiet === true });
      // The plan apply shows goes to stderr, always (with or without --report): stdout carries only
      // what a program reads (the requests of --dry-run).
      const showPlan = (p: Plan) => {
        const summary = args.summary === true || (!args.compact && p.actions.length > FULL_PLAN_LIMIT);
        io.stderr(renderPlan(publicPlan(p), "text", { color, ...(summary ? { summary: true } : args.compact ? { compact: true } : {}) }));
        if (summary && !args.summary)
          io.stderr(`(${p.actions.length} actions: counts per kind above; --compact lists every one, 'pimctl plan' shows every field)\n`);
      };
      const confirm = async (p: Plan): Promise<boolean> => {
        if (!hasChanges(p)) return true;
        if (args.plan || args["auto-approve"] || args["dry-run"]) {
          if (!args.quiet) showPlan(p);
          return true;
        }
        showPlan(p);
        const answer = await io.ask("\nApply these changes? Only 'yes' is accepted: ");
        return answer.trim() === "yes";
      };
      // SIGINT, SIGTERM and SIGHUP reach apply through projectOptions (io.interrupt, src/cli/signals.ts).
      const result = await apply({
        ...projectOptions(args, io),
        ...bundle.options,
        ...(args.plan ? { planFile: path.resolve(io.cwd, args.plan) } : {}),
        ...(args.target ? { targets: args.target } : {}),
        ...(args.exclude ? { excludes: args.exclude } : {}),
        ...(args["lock-timeout"] ? { lockTimeoutMs: durationOption(args["lock-timeout"]) } : {}),
        ...(args["if-applied"] ? { ifApplied: args["if-applied"] } : {}),
        warn: warnLine(io),
        allowDelete: args["allow-delete"] === true,
        allowEmptyFiles: args["allow-empty-files"] === true,
        dryRun: args["dry-run"] === true,
        failFast: args["fail-fast"] === true,
        ...(args["backup-profile"] !== undefined ? { backupProfile: args["backup-profile"] } : {}),
        hooks: progress.hooks,
        confirm,
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
        // The result line, even with --quiet.
        io.stderr("No changes. The tenant matches the manifests.\n");
        if (reportStateProblems(result, io, args.tenant)) throw new ExitWith(EXIT.error);
        return;
      }
      const report = result.report!;
      if (args["dry-run"]) {
        for (const r of report.results)
          if (r.request)
            io.stdout(`${escapeControls(`${r.request.method} ${r.request.path}`)}${r.request.body === undefined ? "" : ` ${jsonText(r.request.body)}`}\n`);
        io.stderr(`Dry run: ${plural(report.results.filter((r) => r.request).length, "request")} built, none sent.\n`);
        const blocked = result.plan.actions.filter((a) => a.flags.blocked).length;
        if (blocked) say(args, io, `Note: the plan has ${plural(blocked, "blocked delete")}; a real apply refuses it (make the plan with --allow-delete).`);
        return;
      }
      if (result.backupFile) say(args, io, `Backup export saved to ${result.backupFile}.`);
      // Never one line per action not done: failures are listed (up to a cap), the rest counted per kind.
      // Addresses and the tenant's error messages in them: escaped (src/base/controls.ts).
      const notDone = notDoneLines(result.plan, report, { savedPlan: Boolean(args.plan) });
      for (const line of notDone.failed) io.stderr(`${escapeControls(line)}\n`);
      for (const line of notDone.skipped) say(args, io, escapeControls(line));
      const v = result.verification;
      // v.error is PimctlError.format(): its line breaks start its detail lines.
      if (v?.error)
        io.stderr(`Verification: the read after the writes failed, so nothing was checked (exit 4): ${escapeControls(v.error, { keepNewlines: true })}\n`);
      if (v && v.mismatches.length) {
        io.stderr(`Verification: the tenant did not store ${plural(v.mismatches.length, "change")} as written (exit 4):\n`);
        for (const m of v.mismatches) io.stderr(`  ${escapeControls(`${m.address}: ${m.fields.join(", ")}`)}\n`);
      }
      const stoppedBy = report.stopped_by;
      if (stoppedBy?.code === "api_unauthorized") {
        io.stderr(
          `Stopped: ${escapeControls(stoppedBy.message, { keepNewlines: true })}\nNo action was started after the 401; ${stoppedBy.not_attempted} ` +
            `action(s) were not attempted and the tenant was not verified. Fix the token first.\n`,
        );
      } else if (stoppedBy?.code === "tenant_unreachable") {
        io.stderr(
          `Stopped: the tenant stopped answering: ${BREAKER_THRESHOLD} actions in a row failed on the connection or with a server error (the ` +
            `last: ${escapeControls(stoppedBy.message.split("\n")[0]!)}).\nNo action was started after that; ${stoppedBy.not_attempted} action(s) ` +
            `were not attempted and the tenant was not verified. Wait until it answers again (pimctl ping).\n`,
        );
      }
      if (result.stopped) {
        io.stderr(
          `Stopped: ${result.stopped}${report.counts.skipped ? ". No action was started after it and" : " after every action was done;"} the ` +
            `tenant was not verified (exit 4).\n`,
        );
      }
      reportStateProblems(result, io, args.tenant);
      if (notDone.next) say(args, io, notDone.next);
      const c = report.counts;
      // The result line, even with --quiet: a log always says how the run ended.
      io.stderr(
        `Apply: ${c.done} done, ${c.failed} failed, ${c.skipped} skipped, ${c.unsupported} not possible through API v1 (` +
          `${(report.duration_ms / 1000).toFixed(1)} s).\n`,
      );
      appendStepSummary(io, () => renderApplySummary(result.plan.tenant, report, v, result.plan));
      if (args.report)
        await writeFile(
          path.resolve(io.cwd, args.report),
          `${JSON.stringify({ plan_summary: result.plan.summary, ...report, verification: v, ...stateProblems(result) }, null, 2)}\n`,
        );
      // Failed, skipped, interrupted or not verified: the run did not do all it was asked to.
      if (c.failed > 0 || c.skipped > 0 || (v && (v.mismatches.length > 0 || v.error !== undefined))) throw new ExitWith(EXIT.partial);
      if (result.stopped || result.stateNotSaved || result.lockNotReleased) throw new ExitWith(EXIT.partial);
    }),
  };
}
