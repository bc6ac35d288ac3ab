import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import { plan, planHmacKey, type PlanOptions } from "../../workflows/index.js";
import type { Config } from "../../config/index.js";
import { renderPlan, type Format } from "../../render/index.js";
import { describeRefresh } from "../../render/refresh.js";
import { publicPlan, writePlanFile } from "../../planfile/file.js";
import { countsAsChanges, WRITE_ONLY_MODES, type WriteOnlyMode } from "../../plan/write-only.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import { PimctlError } from "../../errors.js";
import type { Io } from "../io.js";
import type { LoadedCount } from "../../workflows/targeted-load.js";
import { plural } from "../../plural.js";
import { pageFacts } from "../page-facts.js";
import { ALLOW_EMPTY_FILES_OPTION, applyCommand, projectOptions, say, withFormat, withProjectOptions, withRefresh } from "../options.js";
import { bundled, selectsSeveral, withBundle, type BundleArgs } from "../bundle.js";
import { printReview } from "../fleet-review.js";
import { refuseUnwritable } from "../output-files.js";
import { selectFleet } from "../../workflows/fleet-plan.js";
import { planFleetCommand } from "./plan-fleet.js";

export interface PlanArgs extends BundleArgs {
  format: Format;
  out?: string;
  "print-to"?: string;
  html?: string;
  "detailed-exitcode"?: boolean;
  "write-only": WriteOnlyMode;
  target?: string[];
  exclude?: string[];
  "fail-on-delete"?: boolean;
  "fail-on-destructive"?: boolean;
  compact?: boolean;
  summary?: boolean;
  "show-unmanaged"?: boolean;
  "allow-delete"?: boolean;
  "allow-empty-files"?: boolean;
}

export function planCommand(io: Io): CommandModule<object, PlanArgs> {
  return {
    command: "plan",
    describe: "Show what apply would change in the tenant to match the manifests",
    builder: (y) =>
      planOptions(withBundle(withRefresh(withFormat(withProjectOptions(y)))))
        .example("$0 plan --tenant staging", "Plan against the staging tenant")
        .example("$0 plan --format markdown --out plan.json", "A PR comment on stdout, the plan saved for apply")
        .example("$0 plan --detailed-exitcode --fail-on-destructive", "CI gate: 2 = changes, 3 = policy")
        .example("$0 plan --detailed-exitcode --write-only never", "Unknown web ids alone do not make exit 2")
        .example("$0 plan --format html --print-to plan.html", "A self-contained review page (open it in a browser)")
        .example("$0 plan --format markdown --out plan.json --html plan.html", "CI: comment, saved plan and review page from one read") as never,
    handler: bundled(io, "plan", async (args, bundle) => {
      if (args.out) refuseRenderedName(args.out);
      await refuseUnwritable(io.cwd, { out: args.out, html: args.html, "print-to": args["print-to"] });
      const options = projectOptions(args, io);
      const selection = await selectFleet(options);
      if (selection && selection.tenants.length > 1) {
        bundle.refuseSeveral(selectsSeveral(args.tenant, selection.tenants));
        return planFleetCommand(args, io, selection, { ...options, ...bundle.options });
      }
      return planOneTenant(args, io, { ...options, ...(selection ? { tenant: selection.tenants[0]! } : {}), ...bundle.options }, selection?.config);
    }),
  };
}

/** One tenant, as plan has always been: its review, its saved plan, its exit code. `config`: already read to select the tenant. */
async function planOneTenant(args: PlanArgs, io: Io, options: PlanOptions, config: Config | undefined): Promise<void> {
  const t0 = Date.now();
  const result = await plan(
    {
      ...options,
      ...(args.target ? { targets: args.target } : {}),
      ...(args.exclude ? { excludes: args.exclude } : {}),
      allowDelete: args["allow-delete"] === true,
      allowEmptyFiles: args["allow-empty-files"] === true,
      failOnDelete: args["fail-on-delete"] === true,
      failOnDestructive: args["fail-on-destructive"] === true,
    },
    config ? { config } : {},
  );
  const p = result.plan;
  const how = describeRefresh(result.refresh);
  const loaded = result.loaded ? describeLoaded(result.loaded) : undefined;
  say(
    args,
    io,
    `Read tenant "${result.connection.name}" in ${((Date.now() - t0) / 1000).toFixed(1)} s (${result.connection.api.stats().requests} requests` +
      `${how ? `; ${how}` : ""}${loaded ? `; ${loaded}` : ""}).`,
  );
  const shown = publicPlan(p);
  const page =
    args.format === "html" || args.html ? await pageFacts(io, "plan", [result.config.dir, ...(result.config.file ? [result.config.file] : [])]) : undefined;
  await printReview((format, opts) => renderPlan(shown, format, opts), args, io, page, "plan");
  if (args.out) {
    const hmacKey = planHmacKey(io.env);
    await writePlanFile(path.resolve(io.cwd, args.out), p, hmacKey ? { hmacKey } : {});
    say(args, io, `Saved the plan to ${args.out}${hmacKey ? " (signed)" : ""}. Apply it with: ${applyCommand(args.config, args.out)}`);
  }
  if (result.policyViolation) {
    io.stderr(`error: ${result.policyViolation}\n`);
    throw new ExitWith(EXIT.policy);
  }
  if (args["detailed-exitcode"] && countsAsChanges(p, args["write-only"], result.ledgerExisted)) throw new ExitWith(EXIT.changes);
}

/** What a targeted plan loaded of the manifests: "loaded 7 of 41,235 manifest entries for 3 targets". */
export function describeLoaded(l: LoadedCount): string {
  const count = (n: number) => n.toLocaleString("en-US");
  return `loaded ${count(l.entries)} of ${count(l.of)} manifest ${l.of === 1 ? "entry" : "entries"} for ${plural(l.targets, "target")}`;
}

/**
 * `--out` saves the plan apply reads, always JSON. A name that says markdown,
 * HTML or text is the mistake of expecting the rendered output there (and
 * `--format html --out` once meant the page): refused before the tenant is read,
 * with the option that does write it.
 */
export function refuseRenderedName(out: string): void {
  const ext = path.extname(out).toLowerCase();
  if (![".md", ".markdown", ".html", ".htm", ".txt"].includes(ext)) return;
  throw new PimctlError(
    "usage",
    `--out saves the plan for 'pimctl apply FILE' and is always JSON, so ${out} would hold JSON; write what --format renders with --print-to ` +
      `${out} (the HTML page also with --html ${out}), and save the plan with --out plan.json`,
  );
}

/** plan's own options: where the plan goes, what it shows, and what makes it fail. */
function planOptions<T>(y: Argv<T>) {
  return y
    .option("out", {
      alias: "o",
      type: "string",
      describe: "Save the plan for 'pimctl apply FILE': always JSON (with a fingerprint of the state), whatever --format shows",
    })
    .option("print-to", { type: "string", describe: "Write what --format renders to this file instead of stdout" })
    .option("html", { type: "string", describe: "Also write the HTML review page to this file (with any --format and --out)" })
    .option("detailed-exitcode", { type: "boolean", describe: "Exit 0 when there are no changes, 2 when there are, 1 on error" })
    .option("write-only", {
      choices: WRITE_ONLY_MODES,
      default: "always" as WriteOnlyMode,
      describe:
        "Do first-time writes of write-only values nobody can read back (no ledger entry) count as changes for --detailed-exitcode? always; " +
        "when-unknown: only while the tenant has no state at all; never",
    })
    .option("target", { type: "string", array: true, describe: "Limit the plan to this address (and what it needs); repeatable" })
    .option("exclude", { type: "string", array: true, describe: "Leave out an address or a whole kind (e.g. brands); repeatable" })
    .option("fail-on-delete", { type: "boolean", describe: "Exit 3 when the plan deletes anything" })
    .option("fail-on-destructive", { type: "boolean", describe: "Exit 3 when the plan has destructive changes" })
    .option("allow-delete", {
      type: "boolean",
      describe: "Permit the plan's deletes (pruning). Recorded in the plan; without it deletes show as blocked and apply refuses the plan",
    })
    .option("allow-empty-files", ALLOW_EMPTY_FILES_OPTION)
    .option("compact", { type: "boolean", describe: "One line per action, no field details" })
    .option("summary", { type: "boolean", describe: "Counts per kind and the destructive lines only (text, markdown)" })
    .option("show-unmanaged", { type: "boolean", describe: "List unmanaged records one by one" });
}
