import type { CommandModule } from "yargs";
import { loadConfig, versionMap } from "../../config/index.js";
import { loadManifests } from "../../manifest/index.js";
import { PimctlErrors } from "../../errors.js";
import { pickTenant } from "../../tenant.js";
import { KINDS } from "../../model/catalogue.js";
import type { Io } from "../io.js";
import { say, withProjectOptions, type GlobalArgs } from "../options.js";
import path from "node:path";

interface ValidateArgs extends GlobalArgs {
  directory?: string;
}

export function validateCommand(io: Io): CommandModule<object, ValidateArgs> {
  return {
    command: "validate [directory]",
    describe: "Check manifests offline: schema, duplicates, read-only fields, versions, variables",
    builder: (y) =>
      withProjectOptions(y)
        .positional("directory", { type: "string", describe: "Manifest directory (default: --dir, the config's dir:, or .)" })
        .example("$0 validate", "Validate the configured manifest directory")
        .example("$0 validate catalogue/ --tenant prod", "With prod's variables and version names") as never,
    handler: async (args) => {
      const config = await loadConfig({ cwd: io.cwd, ...(args.config ? { configPath: args.config } : {}), ...(args.directory ?? args.dir ? { dir: (args.directory ?? args.dir)! } : {}) });
      const tenant = args.tenant ? pickTenant(config, args.tenant).tenant : Object.keys(config.tenants).length === 1 ? Object.values(config.tenants)[0] : undefined;
      const versions = versionMap(config, tenant);
      const result = await loadManifests(config.dir, {
        cwd: io.cwd,
        ...(tenant?.variables ? { variables: tenant.variables } : {}),
        ...(Object.keys(versions).length ? { knownVersions: Object.keys(versions) } : {}),
      });
      for (const w of result.warnings) say(args, io, `warning: ${w.format()}`);
      if (result.errors.length) throw new PimctlErrors(result.errors);
      const c = result.catalogue;
      const counts = KINDS.filter((k) => c.managed.includes(k)).map((k) => `${c[k].length} ${k.replace("_", " ")}`);
      const values = c.attributes.reduce((n, a) => n + (a.values?.length ?? 0), 0);
      say(
        args,
        io,
        `OK: ${result.files.length} file(s) in ${path.relative(io.cwd, config.dir) || "."}: ${counts.join(", ") || "nothing declared"}${values ? ` (${values} attribute values)` : ""}${c.versions.length ? `; versions: ${c.versions.join(", ")}` : ""}`,
      );
    },
  };
}
