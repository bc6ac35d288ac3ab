import type { CommandModule } from "yargs";
import { exportTenant, type ExportResult } from "../../workflows/export.js";
import { KINDS, type Kind } from "../../model/catalogue.js";
import type { Io } from "../io.js";
import { plural } from "../../plural.js";
import { projectOptions, say, withProjectOptions, type GlobalArgs } from "../options.js";

interface ExportArgs extends GlobalArgs {
  out: string;
  kinds?: Kind[];
  force?: boolean;
  merge?: boolean;
}

export function exportCommand(io: Io): CommandModule<object, ExportArgs> {
  return {
    command: "export",
    describe: "Write a tenant's reference data as manifests (names, not ids)",
    builder: (y) =>
      withProjectOptions(y)
        .option("out", { alias: "o", type: "string", demandOption: true, describe: "Directory to write <kind>.yaml files into" })
        .option("kinds", { type: "string", array: true, choices: KINDS, describe: "Only these kinds (default: all)" })
        .option("merge", {
          type: "boolean",
          describe:
            "Into a folder of manifests: change only the values that differ, where each entry lives (comments, ${variables}, previous_names, " +
            "layout kept; anchors split, records renamed by hand followed); add new entries; remove none; refused if another record would change. " +
            "Into the config's dir: for a tenant with an overlay, each value goes to the file that declares it (the overlay, else the shared base), " +
            "new records to the overlay",
        })
        .option("force", { type: "boolean", describe: "Into a folder of manifests: overwrite with freshly exported <kind>.yaml files" })
        .conflicts("merge", "force")
        .example("$0 export --tenant prod --out exported/", "Snapshot production as manifests")
        .example("$0 export --tenant prod --out brands/ --kinds brands", "Only brands")
        .example("$0 export --tenant staging --out catalogue/ --merge", "Take what changed in staging into the hand-written manifests") as never,
    handler: async (args) => {
      const result = await exportTenant({
        ...projectOptions(args, io),
        out: args.out,
        ...(args.kinds ? { kinds: args.kinds } : {}),
        ...(args.merge ? { existing: "merge" as const } : args.force ? { existing: "force" as const } : {}),
      });
      if (result.mode !== "merge") {
        say(args, io, `Exported ${plural(result.files.length, "file")}: ${result.files.join(", ")}`);
        if (result.replacedSample) say(args, io, `(replaced init's untouched sample ${result.replacedSample})`);
        for (const f of result.clashes)
          io.stderr(
            `warning: ${f} declares kinds that were exported too: its entries are now declared twice; merge them by hand or remove it (or use --merge)\n`,
          );
        return;
      }
      sayMerged(args, io, result);
    },
  };
}

/** What a merge did: each value, the summary, where the values went, and what it left. */
function sayMerged(args: ExportArgs, io: Io, result: ExportResult): void {
  for (const line of result.renamed) say(args, io, `  renamed: ${line}`);
  for (const line of result.updated) say(args, io, `  updated: ${line}`);
  for (const line of result.added) say(args, io, `  added: ${line}`);
  say(
    args,
    io,
    result.files.length
      ? `Merged into ${args.out}: ${plural(result.updated.length, "value")} updated, ${plural(result.added.length, "entry")} added, in ` +
          `${plural(result.files.length, "file")}: ${result.files.join(", ")}`
      : result.pendingRenames.length
        ? `Merged into ${args.out}: nothing written; the manifests match the tenant but for what is not merged:`
        : `Merged into ${args.out}: the manifests already match the tenant; nothing written.`,
  );
  // Where the values went, when some were written.
  if (result.overlay && result.files.length) {
    // Into the shared base for a tenant with an overlay: what every tenant now reads, and what only this one does.
    say(args, io, `  written to the shared base (every tenant that inherits it reads it): ${plural(result.overlay.baseValues, "value")}`);
    say(
      args,
      io,
      `  written to ${result.overlay.overlay}: ${plural(result.overlay.overlayValues, "value")}, ${plural(result.overlay.overlayAdded, "entry")} added`,
    );
  }
  // Before the warnings: when nothing was written, the summary ends by pointing at them.
  for (const line of result.pendingRenames) say(args, io, `  not merged: ${line}`);
  for (const line of result.overlay?.removed ?? []) io.stderr(`warning: ${line}\n`);
  for (const line of result.byHand) io.stderr(`warning: ${line}\n`);
  if (result.onlyInFolder.length) {
    say(args, io, `In ${args.out} but not in the tenant (kept; remove them by hand if they are gone for good):`);
    for (const line of result.onlyInFolder) say(args, io, `  ${line}`);
  }
}
