import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CommandModule } from "yargs";
import { drift } from "../../workflows/drift.js";
import { DRIFT_FORMATS, renderDrift, type DriftFormat } from "../../render/drift.js";
import { PimctlError } from "../../errors.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import type { Io } from "../io.js";
import { durationOption, projectOptions, say, withProjectOptions, withRefresh, type GlobalArgs } from "../options.js";
import { refuseUnwritable } from "../output-files.js";
import { selectFleet, type Selection } from "../../workflows/fleet-plan.js";
import { driftFleet } from "../../workflows/fleet-drift.js";
import type { ProjectOptions } from "../../workflows/project.js";
import { renderFleetDrift } from "../../render/fleet-drift.js";
import { worstExit } from "../../plan/fleet.js";
import { escapeControls } from "../../base/controls.js";

export interface DriftArgs extends GlobalArgs {
  format: DriftFormat;
  "print-to"?: string;
  "detailed-exitcode"?: boolean;
  target?: string[];
  exclude?: string[];
  since?: string;
}

/** --since: an ISO time, or a duration back from now (90m, 24h; days as 7d). */
export function sinceTime(text: string, now: Date = new Date()): string {
  const days = /^(\d+)d$/.exec(text.trim());
  if (days) return new Date(now.getTime() - Number(days[1]) * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    if (Number.isNaN(Date.parse(text))) throw new PimctlError("usage", `--since ${text}: not a readable time; use e.g. 2026-11-20T00:00:00Z, 24h or 7d`);
    return text.trim();
  }
  return new Date(now.getTime() - durationOption(text)).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function driftCommand(io: Io): CommandModule<object, DriftArgs> {
  return {
    command: "drift",
    describe: "For scheduled jobs: where the tenant no longer matches the manifests, and when each record changed (from the changelog feed)",
    builder: (y) =>
      withRefresh(withProjectOptions(y))
        .option("format", {
          alias: "f",
          choices: DRIFT_FORMATS,
          default: "text" as DriftFormat,
          describe: "text for logs, markdown for an issue, json for programs (schemas/drift.schema.json; several tenants: schemas/fleet-drift.schema.json)",
          group: "Output and network:",
        })
        // Drift makes no plan to apply: --out (its older name) writes the same report.
        .option("print-to", { alias: ["out", "o"], type: "string", describe: "Write the report (in --format) to this file instead of stdout" })
        .option("detailed-exitcode", {
          type: "boolean",
          describe: "Exit 0 when there is no drift, 2 when there is (what API v1 cannot write back does not count), 1 on error",
        })
        .option("since", { type: "string", describe: "Read changelog entries since this time only (ISO 8601, or 24h, 7d back from now); default: every entry" })
        .option("target", { type: "string", array: true, describe: "Only this address (and what it needs); repeatable" })
        .option("exclude", { type: "string", array: true, describe: "Leave out an address or a kind; repeatable" })
        .example("$0 drift --detailed-exitcode", "A nightly job: exit 2 when someone changed the tenant by hand")
        .example("$0 drift --format markdown --print-to drift.md --detailed-exitcode", "The body of an issue to open on exit 2")
        .example("$0 drift --since 7d --format json", "Attribute changes from the last week only") as never,
    handler: async (args) => {
      await refuseUnwritable(io.cwd, { "print-to": args["print-to"] });
      const options = projectOptions(args, io);
      const selection = await selectFleet(options);
      if (selection && selection.tenants.length > 1) return fleetDrift(args, io, selection, options);
      const report = await drift(
        {
          ...options,
          ...(selection ? { tenant: selection.tenants[0]! } : {}),
          ...(args.target ? { targets: args.target } : {}),
          ...(args.exclude ? { excludes: args.exclude } : {}),
          ...(args.since ? { since: sinceTime(args.since) } : {}),
        },
        selection ? { config: selection.config } : {},
      );
      const rendered = renderDrift(report, args.format);
      if (args["print-to"]) {
        await writeFile(path.resolve(io.cwd, args["print-to"]), rendered);
        say(args, io, `Wrote the drift report to ${args["print-to"]} (${report.drifted ? `${report.drifted} drifted` : "no drift"}).`);
      } else {
        io.stdout(rendered);
      }
      // What API v1 cannot write back is shown, not counted: a nightly job would report it every night.
      if (args["detailed-exitcode"] && report.drifted) throw new ExitWith(EXIT.changes);
    },
  };
}

/** drift --tenant GLOB over two or more tenants: one report, a row per tenant; the exit code the worst of theirs. */
async function fleetDrift(args: DriftArgs, io: Io, selection: Selection, options: ProjectOptions): Promise<void> {
  const report = await driftFleet(
    {
      ...options,
      ...(args.target ? { targets: args.target } : {}),
      ...(args.exclude ? { excludes: args.exclude } : {}),
      ...(args.since ? { since: sinceTime(args.since) } : {}),
    },
    selection,
  );
  const rendered = renderFleetDrift(report, args.format);
  const drifted = report.tenants.filter((t) => t.report?.drifted).length;
  if (args["print-to"]) {
    await writeFile(path.resolve(io.cwd, args["print-to"]), rendered);
    say(args, io, `Wrote the drift report of ${report.tenants.length} tenants to ${args["print-to"]} (${drifted ? `${drifted} drifted` : "no drift"}).`);
  } else {
    io.stdout(rendered);
  }
  for (const t of report.tenants) if (t.error) io.stderr(`error: tenant "${escapeControls(t.tenant)}" could not be read: ${escapeControls(t.error.message)}\n`);
  const worst = worstExit(report.tenants.map((t) => t.exit));
  if (worst === 1) throw new ExitWith(EXIT.error);
  if (worst === 2 && args["detailed-exitcode"]) throw new ExitWith(EXIT.changes);
}
