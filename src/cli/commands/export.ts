import type { CommandModule } from "yargs";
import { exportTenant } from "../../workflows.js";
import { KINDS, type Kind } from "../../model/catalogue.js";
import type { Io } from "../io.js";
import { plural } from "../../plural.js";
import { projectOptions, say, withProjectOptions, type GlobalArgs } from "../options.js";

interface ExportArgs extends GlobalArgs {
  out: string;
  kinds?: Kind[];
}

export function exportCommand(io: Io): CommandModule<object, ExportArgs> {
  return {
    command: "export",
    describe: "Write a tenant's reference data as manifests (names, not ids)",
    builder: (y) =>
      withProjectOptions(y)
        .option("out", { alias: "o", type: "string", demandOption: true, describe: "Directory to write <kind>.yaml files into" })
        .option("kinds", { type: "string", array: true, choices: KINDS, describe: "Only these kinds (default: all)" })
        .example("$0 export --tenant prod --out exported/", "Snapshot production as manifests")
        .example("$0 export --tenant prod --out brands/ --kinds brands", "Only brands") as never,
    handler: async (args) => {
      const { files } = await exportTenant({ ...projectOptions(args, io), out: args.out, ...(args.kinds ? { kinds: args.kinds } : {}) });
      say(args, io, `Exported ${plural(files.length, "file")}: ${files.join(", ")}`);
    },
  };
}
