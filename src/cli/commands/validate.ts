import type { CommandModule } from "yargs";
import { KIND_NOUN, KINDS } from "../../model/catalogue.js";
import type { Io } from "../io.js";
import { reportProblems, type ProblemFormat } from "../pipeline-output.js";
import { byPlace, problemsOf } from "../../render/errors.js";
import { plural } from "../../plural.js";
import { configPathFor, say, withProjectOptions, type GlobalArgs } from "../options.js";
import { validate } from "../../workflows/validate.js";
import type { LoadResult } from "../../manifest/index.js";
import path from "node:path";
import { isWithin } from "../../base/folders.js";

interface ValidateArgs extends GlobalArgs {
  directory?: string;
  format: "text" | ProblemFormat;
}

export function validateCommand(io: Io): CommandModule<object, ValidateArgs> {
  return {
    command: "validate [directory]",
    describe: "Check manifests offline: schema, duplicates, read-only fields, versions, variables",
    builder: (y) =>
      withProjectOptions(y)
        .positional("directory", { type: "string", describe: "Manifest directory (default: --dir, the config's dir:, or .)" })
        .option("format", {
          alias: "f",
          choices: ["text", "json", "codeclimate"] as const,
          default: "text" as const,
          describe: "text for people; json (schemas/errors.schema.json) or codeclimate (GitLab code quality) on stdout",
          group: "Output and network:",
        })
        .example("$0 validate --format codeclimate > gl-code-quality-report.json", "GitLab's merge-request widget")
        .example("$0 validate", "Validate the configured manifest directory (and the config's translations: rule); with overlays, every tenant's")
        .example("$0 validate catalogue/ --tenant prod", "With prod's variables and version names") as never,
    handler: async (args) => {
      const configPath = configPathFor(args, io);
      const directory = args.directory ?? args.dir;
      const result = await validate({
        cwd: io.cwd,
        ...(configPath ? { configPath } : {}),
        ...(directory ? { dir: directory } : {}),
        ...(args.tenant ? { tenant: args.tenant } : {}),
      });
      const config = result.config;
      // In file, line and column order, as the JSON and the error path print them.
      for (const w of [...result.warnings].sort(byPlace)) say(args, io, `warning: ${w.format()}`);
      const format = args.format === "text" ? undefined : args.format;
      const tenants = result.fleet ? { tenants: result.fleet.map((t) => t.tenant) } : {};
      reportProblems(io, problemsOf([], result.warnings), format, { files: result.files.map((f) => path.relative(io.cwd, f)), ...tenants });
      const dir = path.relative(io.cwd, config.dir) || ".";
      if (!result.fleet) say(args, io, `OK: ${summary(result, dir, overlayFiles(result.files, result.overlay, io.cwd))}`);
      else for (const t of result.fleet) say(args, io, `OK: ${t.tenant}: ${summary(t.result, dir, overlayFiles(t.result.files, t.overlay, io.cwd))}`);
    },
  };
}

/**
 * "6 files in catalogue: 2 brands, ...; versions: French": what a load declared; a tenant's overlay
 * files are counted apart ("5 files in catalogue, 1 in overlays/prod-us").
 */
function summary(result: LoadResult, dir: string, overlay?: { files: number; shown: string }): string {
  const c = result.catalogue;
  const counts = KINDS.filter((k) => c.managed.includes(k)).map((k) => plural(c[k].length, KIND_NOUN[k]));
  const values = c.attributes.reduce((n, a) => n + (a.values?.length ?? 0), 0);
  const inOverlay = overlay?.files ?? 0;
  return (
    `${plural(result.files.length - inOverlay, "file")} in ${dir}${inOverlay ? `, ${inOverlay} in ${overlay!.shown}` : ""}: ` +
    `${counts.join(", ") || "nothing declared"}${values ? ` (${plural(values, "attribute value")})` : ""}` +
    `${c.versions.length ? `; versions: ${c.versions.join(", ")}` : ""}`
  );
}

/** How many of a load's files are in the tenant's overlay folder, and the folder as shown. */
function overlayFiles(files: readonly string[], overlay: string | undefined, cwd: string): { files: number; shown: string } | undefined {
  if (!overlay) return undefined;
  return { files: files.filter((f) => isWithin(overlay, f)).length, shown: path.relative(cwd, overlay) || "." };
}
