import { hasCredentials, redactUrl } from "../../config/index.js";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { CommandModule } from "yargs";
import { schemaPath } from "../../workflows/index.js";
import { PimctlError } from "../../errors.js";
import { commitFiles } from "../../base/atomic-files.js";
import type { Io } from "../io.js";
import { say, type GlobalArgs } from "../options.js";

interface InitArgs extends GlobalArgs {
  dir: string;
  tenant: string;
  "base-url"?: string;
  "token-env"?: string;
  force?: boolean;
}

export function initCommand(io: Io): CommandModule<object, InitArgs> {
  return {
    command: "init",
    describe: "Scaffold a pimctl.yaml and a manifest directory",
    builder: (y) =>
      y
        .option("config", { type: "string", default: "pimctl.yaml", describe: "Config file to write" })
        .option("dir", { type: "string", default: "catalogue", describe: "Manifest directory to create" })
        .option("tenant", { type: "string", default: "dev", describe: "Name of the first tenant in the config" })
        .option("base-url", { type: "string", describe: "The tenant's base URL, ending in /api/v1 (asked on a terminal)" })
        .option("token-env", { type: "string", describe: "Environment variable holding its token (default PIMCTL_<TENANT>_TOKEN)" })
        .option("force", { type: "boolean", describe: "Overwrite existing files" })
        .option("quiet", { alias: "q", type: "boolean", describe: "No messages" })
        .example("$0 init", "Ask on a terminal; use defaults otherwise")
        .example("$0 init --tenant staging --base-url https://abc.eu.example.com/api/v1", "No questions") as never,
    handler: async (args) => {
      const tenant = args.tenant;
      let baseUrl = args["base-url"];
      const defaultEnv = `PIMCTL_${tenant.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_TOKEN`;
      let tokenEnv = args["token-env"];
      if (io.interactive) {
        baseUrl ??= (await io.ask(`Base URL of tenant "${tenant}" (ends in /api/v1) [http://127.0.0.1:4010/${tenant}/api/v1]: `)).trim() || undefined;
        tokenEnv ??= (await io.ask(`Environment variable holding its token [${defaultEnv}]: `)).trim() || undefined;
      }
      baseUrl ??= `http://127.0.0.1:4010/${tenant}/api/v1`;
      if (hasCredentials(baseUrl))
        throw new PimctlError(
          "config",
          `the base URL must not hold credentials (${redactUrl(baseUrl)}): the token goes in an environment variable (--token-env)`,
        );
      tokenEnv ??= defaultEnv;
      const configFile = path.resolve(io.cwd, args.config ?? "pimctl.yaml");
      const dir = path.resolve(io.cwd, args.dir);
      const manifest = path.join(dir, "catalogue.yaml");
      for (const f of [configFile, manifest]) {
        if (existsSync(f) && !args.force) throw new PimctlError("io", `${path.relative(io.cwd, f)} exists; pass --force to overwrite`);
      }
      await mkdir(dir, { recursive: true });
      const ignore = await ignoreStateDir(path.dirname(configFile));
      // One commit: the config, the first manifest and .gitignore are all written, or none of them.
      await commitFiles(
        [
          { file: configFile, text: configText(configFile, dir, tenant, baseUrl, tokenEnv) },
          { file: manifest, text: manifestText(dir) },
          ...(ignore.text === undefined ? [] : [{ file: ignore.file, text: ignore.text }]),
        ],
        { journalDir: path.dirname(configFile), show: (f) => path.relative(io.cwd, f) || f, ...(io.interrupt ? { signal: io.interrupt } : {}) },
      );
      say(
        args,
        io,
        `Wrote ${path.relative(io.cwd, configFile)} and ` +
          `${path.relative(io.cwd, manifest)}` +
          `${ignore.did === "kept" ? "" : `; ${ignore.did} ${path.relative(io.cwd, ignore.file)}`}.`,
      );
      say(args, io, `Next: export ${tokenEnv}=<token>, then 'pimctl validate' and 'pimctl plan --tenant ${tenant}'.`);
    },
  };
}

const IGNORE_LINE = ".pimctl/";

const configText = (configFile: string, dir: string, tenant: string, baseUrl: string, tokenEnv: string): string =>
  [
    "# yaml-language-server: $schema=" + path.relative(path.dirname(configFile), schemaPath().replace("manifest.schema.json", "config.schema.json")),
    "# pimctl configuration: tenants, language versions, pruning. See README.md.",
    `dir: ${path.relative(path.dirname(configFile), dir) || "."}`,
    "tenants:",
    `  ${tenant}:`,
    `    base_url: ${baseUrl}`,
    `    token_env: ${tokenEnv}   # the token itself never goes in this file`,
    "versions: {}   # language version name -> version id, where channels do not publish them",
    "prune: {}      # e.g. brands: true to delete brands the manifests do not declare",
    "",
  ].join("\n");

const manifestText = (dir: string): string =>
  [
    `# yaml-language-server: $schema=${path.relative(dir, schemaPath())}`,
    "display_groups:",
    "  - name: Basics",
    "    in_navigation: true",
    "attributes:",
    "  - name: Colour",
    "    type: selectbox",
    "    display_group: Basics",
    "    publish: true",
    "    values:",
    "      - value: Red",
    "      - value: Blue",
    "",
  ].join("\n");

/**
 * .pimctl/ beside the config holds the local ledger, lock and caches: machine
 * state, never a manifest to commit. An existing .gitignore is added to, never
 * rewritten; one that already ignores it is left alone. Returns the new text to write (none when kept).
 */
async function ignoreStateDir(dir: string): Promise<{ file: string; did: "wrote" | "added .pimctl/ to" | "kept"; text?: string }> {
  const file = path.join(dir, ".gitignore");
  const text = await readFile(file, "utf8").catch(() => undefined);
  const block = `# pimctl's local state (ledger, lock, caches): see README "State"\n${IGNORE_LINE}\n`;
  if (text === undefined) return { file, did: "wrote", text: block };
  if (text.split(/\r?\n/).some((l) => /^\/?\.pimctl\/?(\*\*?)?$/.test(l.trim()))) return { file, did: "kept" };
  return { file, did: "added .pimctl/ to", text: `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${block}` };
}
