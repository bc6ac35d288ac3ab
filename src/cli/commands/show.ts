/**
 * `pimctl show FILE...`: the review of saved plans. Many files (each tenant's `plan --out` of a CI
 * matrix, or fleet files) give the combined review a one-run `plan --tenant GLOB` prints, byte for
 * byte; one single-tenant file is that plan rendered again, in any format.
 */
import path from "node:path";
import type { CommandModule } from "yargs";
import { showPlans } from "../../workflows/show.js";
import { publicPlan } from "../../planfile/file.js";
import { renderPlan } from "../../render/index.js";
import type { Io } from "../io.js";
import { pageFacts } from "../page-facts.js";
import { configPathFor, withFormat } from "../options.js";
import { refuseUnwritable } from "../output-files.js";
import { fleetExit, printFleetReview, printReview, type ReviewArgs } from "../fleet-review.js";

interface ShowArgs extends ReviewArgs {
  files: string[];
}

export function showCommand(io: Io): CommandModule<object, ShowArgs> {
  return {
    command: "show <files..>",
    describe: "Render saved plans again: one plan in another format, or many (a CI matrix's plan files, fleet files) as one combined review",
    builder: (y) =>
      withFormat(y)
        .option("config", { type: "string", describe: "Config file, for the rollout waves (default: pimctl.yaml here or above, if any)" })
        .option("color", { type: "boolean", describe: "Colour output (--no-color turns it off; NO_COLOR is honoured)" })
        .option("quiet", { alias: "q", type: "boolean", describe: "No output but the review" })
        .positional("files", { type: "string", array: true, describe: "Saved plan files (plan --out): single-tenant plans or fleet files" })
        .option("print-to", { type: "string", describe: "Write what --format renders to this file instead of stdout" })
        .option("html", { type: "string", describe: "Also write the HTML review page to this file" })
        .option("detailed-exitcode", { type: "boolean", describe: "Exit 0 when no plan has changes, 2 when one has, 1 when a tenant could not be planned" })
        .option("compact", { type: "boolean", describe: "One line per action, no field details" })
        .option("summary", { type: "boolean", describe: "Counts per kind and the destructive lines only (text, markdown)" })
        .option("show-unmanaged", { type: "boolean", describe: "List unmanaged records one by one" })
        .example("$0 show plan-*.json --format markdown --html review.html", "The last job of a CI matrix: one comment and one page for every tenant")
        .example("$0 show plan.json --format html --print-to plan.html", "A saved plan's review page, made again") as never,
    handler: async (args) => {
      await refuseUnwritable(io.cwd, { html: args.html, "print-to": args["print-to"] });
      const configPath = configPathFor(args, io);
      const { fleet, config } = await showPlans(args.files, { cwd: io.cwd, env: io.env, ...(configPath ? { configPath } : {}) });
      const inputs = config ? [config.dir, ...(config.file ? [config.file] : [])] : args.files.map((f) => path.resolve(io.cwd, f));
      const page = args.format === "html" || args.html ? await pageFacts(io, "plan", inputs) : undefined;
      if (fleet.tenants.length > 1) {
        await printFleetReview(fleet, args, io, page);
        return fleetExit(fleet, args, io);
      }
      // One tenant's file: rendered as `plan` renders that plan (without its basis and seal).
      const { integrity: _integrity, ...plan } = publicPlan(fleet.tenants[0]!.plan!);
      await printReview((format, opts) => renderPlan(plan, format, opts), args, io, page, "plan");
      return fleetExit(fleet, args, io);
    },
  };
}
