import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import { apply } from "../../workflows/index.js";
import { applyEnding, applyIncomplete, type ApplyEnding, type ApplyResult } from "../../apply/outcome.js";
import { renderPlan } from "../../render/index.js";
import { createProgress } from "../../render/progress.js";
import { hasChanges, type Plan } from "../../plan/types.js";
import { PimctlError } from "../../errors.js";
import { EXIT, ExitWith, type ExitCode } from "../exit-codes.js";
import type { Io } from "../io.js";
import { appendStepSummary } from "../pipeline-output.js";
import { renderApplySummary } from "../../render/apply-summary.js";
import { applyReportJson, applyResultText } from "../../render/apply-result.js";
import { ALLOW_EMPTY_FILES_OPTION, colorFor, durationOption, projectOptions, say, warnLine, withProjectOptions, withRefresh } from "../options.js";
import { bundled, selectsSeveral, withBundle, type BundleArgs } from "../bundle.js";
import { publicPlan } from "../../planfile/file.js";
import { refuseUnwritable } from "../output-files.js";
import { applyRollout, rolloutSource, type RolloutArgs } from "./apply-rollout.js";

interface ApplyArgs extends BundleArgs, RolloutArgs {
  /** The saved plan files given: one is today's saved plan (`plan`); several, or a fleet file, a rollout. */
  plans?: string[];
  plan?: string;
}

/** Above this many actions the plan apply shows is the summary unless --compact asks for every line. */
const FULL_PLAN_LIMIT = 200;

export function applyCommand(io: Io): CommandModule<object, ApplyArgs> {
  return {
    command: "apply [plans..]",
    describe: "Make the tenant match the manifests (or apply saved plans: one, or several tenants' as a rollout)",
    builder: (y) =>
      applyOptions(withBundle(withRefresh(withProjectOptions(y))))
        .example("$0 apply --tenant staging", "Plan, show, ask, apply")
        .example("$0 apply plan.json", "Apply a reviewed, saved plan (CI on merge)")
        .example("$0 apply plan-*.json", "Roll out a CI matrix's saved plans, one per tenant, in the config's rollout: waves")
        .example("$0 apply --auto-approve --allow-delete", "Unattended, deletes included")
        .example("$0 apply --tenant 'prod-*' --auto-approve", "Roll out to every prod tenant, in the config's rollout: waves")
        .example("$0 apply plan.json --lock-timeout 5m", "Wait up to 5 minutes for a running apply to finish") as never,
    handler: bundled(io, "apply", async (args, bundle) => {
      const color = colorFor(args, io);
      if (args.plans?.length === 1) args.plan = args.plans[0];
      if (!args.plans?.length && !args["auto-approve"] && !args["dry-run"] && !io.interactive) {
        throw new PimctlError("usage", "refusing to apply without confirmation: no terminal to ask on. Pass --auto-approve, or apply a saved plan file");
      }
      await refuseUnwritable(io.cwd, { report: args.report });
      const source = await rolloutSource(args, io);
      if (source) {
        bundle.refuseSeveral(
          "selection" in source
            ? selectsSeveral(args.tenant, source.selection.tenants)
            : `${source.files.join(", ")} ${source.files.length > 1 ? "are the saved plans" : "is the saved fleet plan"} of several tenants`,
        );
        return applyRollout(args, io, source, bundle.options);
      }
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
      // The views say how it went (src/render/apply-result.ts); this picks them and the exit code.
      const ending = applyEnding(result, args["dry-run"] === true);
      const text = applyResultText(result, { dryRun: args["dry-run"] === true, savedPlan: Boolean(args.plan), cwd: io.cwd, ...tenantFlag(args) });
      for (const line of text)
        if (line.to === "note") say(args, io, line.text);
        else io[line.to](line.text);
      if (ending === "ran") {
        appendStepSummary(io, () => renderApplySummary(result.plan.tenant, result.report!, result.verification, result.plan));
        if (args.report) await writeFile(path.resolve(io.cwd, args.report), applyReportJson(result));
      }
      const exit = applyExit(ending, result);
      if (exit !== undefined) throw new ExitWith(exit);
    }),
  };
}

/** Cancelled: an error. Nothing to change, but the state or the lock left behind: an error. A run that did not do all it was asked: partial. */
function applyExit(ending: ApplyEnding, result: ApplyResult): ExitCode | undefined {
  if (ending === "aborted") return EXIT.error;
  if (ending === "no-changes" && (result.stateNotSaved || result.lockNotReleased)) return EXIT.error;
  if (ending === "ran" && applyIncomplete(result)) return EXIT.partial;
  return undefined;
}

const tenantFlag = (args: ApplyArgs): { tenantFlag?: string } => (args.tenant ? { tenantFlag: args.tenant } : {});

/** apply's own options: the plan it applies, what it may do, how it reports. */
function applyOptions<T>(y: Argv<T>) {
  return y
    .positional("plans", {
      type: "string",
      array: true,
      describe:
        "A plan saved with 'pimctl plan --out FILE' (refused when the tenant changed since); a fleet file, or several tenants' plan files: " +
        "rolled out, each tenant as reviewed",
    })
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
    });
}
