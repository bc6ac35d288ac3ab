import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CommandModule } from "yargs";
import { diff } from "../../workflows/index.js";
import { renderPlan, type Format } from "../../render/index.js";
import { hasChanges } from "../../plan/types.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import type { Io } from "../io.js";
import { pageFacts } from "../page-facts.js";
import { colorFor, projectOptions, say, withFormat, withProjectOptions, withRefresh, type GlobalArgs } from "../options.js";
import { refuseUnwritable } from "../output-files.js";
import { PimctlError } from "../../errors.js";

interface DiffArgs extends GlobalArgs {
  from: string;
  to: string;
  format: Format;
  "print-to"?: string;
  "detailed-exitcode"?: boolean;
  compact?: boolean;
  target?: string[];
  exclude?: string[];
}

export function diffCommand(io: Io): CommandModule<object, DiffArgs> {
  return {
    command: "diff",
    describe: "Compare two tenants, or a manifest directory and a tenant, as a plan",
    builder: (y) =>
      withRefresh(withFormat(withProjectOptions(y)))
        .option("from", { type: "string", demandOption: true, describe: "The source: a tenant name, or a manifest directory" })
        .option("to", { type: "string", demandOption: true, describe: "The tenant that would be changed to look like --from" })
        // A diff makes no plan to apply: --out (its older name) writes the same rendered output.
        .option("print-to", {
          alias: ["out", "o"],
          type: "string",
          describe: "Write what --format renders to this file instead of stdout (e.g. --format html --print-to diff.html)",
        })
        .option("detailed-exitcode", { type: "boolean", describe: "Exit 0 when they match, 2 when they differ" })
        .option("compact", { type: "boolean", describe: "One line per difference" })
        .option("target", { type: "string", array: true, describe: "Limit to this address; repeatable" })
        .option("exclude", { type: "string", array: true, describe: "Leave out an address or a kind; repeatable" })
        .example("$0 diff --from staging --to prod", "What promoting staging would change in prod")
        .example("$0 diff --from ./catalogue --to prod --format markdown", "A directory against a tenant")
        .example("$0 diff --from staging --to prod --format html --print-to diff.html", "A review page of the difference") as never,
    handler: async (args) => {
      // --tenant is every command's option, but diff names its two sides itself: silently ignoring it would mislead.
      if (args.tenant !== undefined) {
        throw new PimctlError("usage", `diff compares --from and --to (tenants or a directory), so --tenant ${args.tenant} is not used: drop it`);
      }
      await refuseUnwritable(io.cwd, { "print-to": args["print-to"] });
      const p = await diff({
        ...projectOptions(args, io),
        from: args.from,
        to: args.to,
        ...(args.target ? { targets: args.target } : {}),
        ...(args.exclude ? { excludes: args.exclude } : {}),
      });
      const page = args.format === "html" ? await pageFacts(io, `diff from ${args.from} to ${args.to}`) : undefined;
      // Records only the target has are always listed: a diff that hides them would mislead a promotion.
      const rendered = renderPlan(p, args.format, {
        color: args.format === "text" && !args["print-to"] && colorFor(args, io),
        showUnmanaged: true,
        ...(args.compact ? { compact: true } : {}),
        ...(page ? { page } : {}),
      });
      if (args["print-to"]) {
        await writeFile(path.resolve(io.cwd, args["print-to"]), rendered);
        say(args, io, `Wrote the ${args.format} output to ${args["print-to"]}.`);
      } else {
        io.stdout(rendered);
      }
      if (args["detailed-exitcode"] && hasChanges(p)) throw new ExitWith(EXIT.changes);
    },
  };
}
