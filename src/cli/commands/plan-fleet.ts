/**
 * `plan --tenant 'prod-*'` when the selection holds two or more tenants: every tenant planned,
 * one combined review, the fleet file with --out (src/planfile/fleet-file.ts), the worst exit code.
 */
import path from "node:path";
import { planFleet, type Selection } from "../../workflows/fleet-plan.js";
import { planHmacKey, type PlanOptions } from "../../workflows/index.js";
import { writeFleetFile } from "../../planfile/fleet-file.js";
import { plural } from "../../plural.js";
import type { Io } from "../io.js";
import { pageFacts } from "../page-facts.js";
import { applyCommand, say } from "../options.js";
import { fleetExit, printFleetReview, type ReviewArgs } from "../fleet-review.js";
import type { WriteOnlyMode } from "../../plan/write-only.js";

/** What the fleet path reads of plan's options (plan.ts's PlanArgs holds them all). */
export interface FleetPlanArgs extends ReviewArgs {
  out?: string;
  target?: string[];
  exclude?: string[];
  "allow-delete"?: boolean;
  "allow-empty-files"?: boolean;
  "write-only": WriteOnlyMode;
  "fail-on-delete"?: boolean;
  "fail-on-destructive"?: boolean;
}

/** `options`: the project options the command line gives (read once: reading them says which config is used). */
export async function planFleetCommand(args: FleetPlanArgs, io: Io, selection: Selection, options: PlanOptions): Promise<void> {
  const t0 = Date.now();
  const gates = { failOnDelete: args["fail-on-delete"] === true, failOnDestructive: args["fail-on-destructive"] === true };
  const { fleet, requests } = await planFleet(
    {
      ...options,
      ...(args.target ? { targets: args.target } : {}),
      ...(args.exclude ? { excludes: args.exclude } : {}),
      allowDelete: args["allow-delete"] === true,
      allowEmptyFiles: args["allow-empty-files"] === true,
      ...gates,
      exitRules: { writeOnly: args["write-only"], ...gates },
    },
    selection,
  );
  const failed = fleet.tenants.filter((t) => t.error).length;
  say(
    args,
    io,
    `Planned ${plural(fleet.tenants.length, "tenant")} in ${((Date.now() - t0) / 1000).toFixed(1)} s (${requests} requests` +
      `${failed ? `; ${failed} could not be planned` : ""}).`,
  );
  const config = selection.config;
  const page = args.format === "html" || args.html ? await pageFacts(io, "plan", [config.dir, ...(config.file ? [config.file] : [])]) : undefined;
  await printFleetReview(fleet, args, io, page);
  if (args.out) {
    const hmacKey = planHmacKey(io.env);
    await writeFleetFile(path.resolve(io.cwd, args.out), fleet, hmacKey ? { hmacKey } : {});
    say(
      args,
      io,
      `Saved the plans of ${plural(fleet.tenants.length - failed, "tenant")}${failed ? ` and the ${plural(failed, "error")} of the rest` : ""} ` +
        `to ${args.out}${hmacKey ? " (signed)" : ""}. Apply them with: ${applyCommand(args.config, args.out)}`,
    );
  }
  fleetExit(fleet, args, io, gates);
}
