import { hasCredentials, redactUrl } from "../../config/index.js";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { CommandModule } from "yargs";
import { schemaPath } from "../../workflows/index.js";
import { sampleManifest } from "../../workflows/init-sample.js";
import { exportTenant } from "../../workflows/export.js";
import { plural } from "../../plural.js";
import { PimctlError } from "../../errors.js";
import { commitFiles } from "../../files/atomic-files.js";
import type { Io } from "../io.js";
import { once, say, type GlobalArgs } from "../options.js";

interface InitArgs extends GlobalArgs {
  dir: string;
  tenant: string;
  "base-url"?: string;
  "token-env"?: string;
  "from-tenant"?: boolean;
  force?: boolean;
}

export function initCommand(io: Io): CommandModule<object, InitArgs> {
  return {
    command: "init",
    describe: "Scaffold a pimctl.yaml and a manifest directory (a sample, or what the tenant holds with --from-tenant)",
    builder: (y) =>
      y
        .option("config", { type: "string", default: "pimctl.yaml", describe: "Config file to write" })
        .option("dir", { type: "string", default: "catalogue", describe: "Manifest directory to create" })
        .option("tenant", {
          type: "string",
          default: "dev",
          describe: "Name of the first tenant in the config",
          coerce: once("tenant", "init writes one tenant"),
        })
        .option("base-url", { type: "string", describe: "The tenant's base URL, ending in /api/v1 (asked on a terminal)" })
        .option("token-env", { type: "string", describe: "Environment variable holding its token (default PIMCTL_<TENANT>_TOKEN)" })
        .option("from-tenant", {
          type: "boolean",
          describe: "Adopt the tenant: export what it holds into the manifest directory instead of a sample (needs its token in the environment)",
        })
        .option("force", { type: "boolean", describe: "Overwrite existing files" })
        .option("quiet", { alias: "q", type: "boolean", describe: "No messages" })
        .example("$0 init", "Ask on a terminal; use defaults otherwise")
        .example("$0 init --tenant staging --base-url https://abc.eu.example.com/api/v1", "No questions")
        .example("$0 init --tenant prod --base-url https://abc.eu.example.com/api/v1 --from-tenant", "Start from what the tenant holds") as never,
    handler: async (args) => {
      const answers = await askTenant(args, io);
      const configFile = path.resolve(io.cwd, args.config ?? "pimctl.yaml");
      const dir = path.resolve(io.cwd, args.dir);
      const manifest = path.join(dir, "catalogue.yaml");
      // With --from-tenant the export refuses a folder of manifests itself (replacing only init's untouched sample).
      for (const f of args["from-tenant"] ? [configFile] : [configFile, manifest]) {
        if (existsSync(f) && !args.force) throw new PimctlError("io", `${path.relative(io.cwd, f)} exists; pass --force to overwrite`);
      }
      await mkdir(dir, { recursive: true });
      const ignore = await ignoreStateDir(path.dirname(configFile));
      const ignoreNote = ignore.did === "kept" ? "" : `; ${ignore.did} ${path.relative(io.cwd, ignore.file)}`;
      const shownDir = path.relative(io.cwd, dir) || ".";
      // One commit: the config, the first manifest (unless the tenant is adopted) and .gitignore are all written, or none of them.
      await commitFiles(
        [
          { file: configFile, text: configText({ configFile, dir, tenant: args.tenant, ...answers }) },
          ...(args["from-tenant"] ? [] : [{ file: manifest, text: sampleManifest(path.relative(dir, schemaPath())) }]),
          ...(ignore.text === undefined ? [] : [{ file: ignore.file, text: ignore.text }]),
        ],
        { journalDir: path.dirname(configFile), show: (f) => path.relative(io.cwd, f) || f, ...(io.interrupt ? { signal: io.interrupt } : {}) },
      );
      if (args["from-tenant"]) {
        const files = await adopt(args, io, { configFile, dir: shownDir });
        say(
          args,
          io,
          `Wrote ${path.relative(io.cwd, configFile)} and exported tenant "${args.tenant}" into ${shownDir} (${plural(files, "file")})${ignoreNote}.`,
        );
        say(args, io, `Next: 'pimctl plan --tenant ${args.tenant}' shows no changes; commit the config and ${shownDir}.`);
        return;
      }
      say(args, io, `Wrote ${path.relative(io.cwd, configFile)} and ${path.relative(io.cwd, manifest)}${ignoreNote}.`);
      say(args, io, `Next: export ${answers.tokenEnv}=<token>, then 'pimctl validate' and 'pimctl plan --tenant ${args.tenant}'.`);
      say(
        args,
        io,
        `To start from what the tenant already holds instead: 'pimctl export --tenant ${args.tenant} --out ${shownDir}' (it replaces the sample while ` +
          "it is untouched).",
      );
    },
  };
}

/** The tenant's base URL and token variable: the options, else asked on a terminal, else the defaults. */
async function askTenant(args: InitArgs, io: Io): Promise<{ baseUrl: string; tokenEnv: string }> {
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
    throw new PimctlError("config", `the base URL must not hold credentials (${redactUrl(baseUrl)}): the token goes in an environment variable (--token-env)`);
  return { baseUrl, tokenEnv: tokenEnv ?? defaultEnv };
}

function configText(c: { configFile: string; dir: string; tenant: string; baseUrl: string; tokenEnv: string }): string {
  return [
    "# yaml-language-server: $schema=" + path.relative(path.dirname(c.configFile), schemaPath().replace("manifest.schema.json", "config.schema.json")),
    "# pimctl configuration: tenants, language versions, pruning. See pimctl's docs/configuration.md.",
    `dir: ${path.relative(path.dirname(c.configFile), c.dir) || "."}`,
    "tenants:",
    `  ${c.tenant}:`,
    `    base_url: ${c.baseUrl}`,
    `    token_env: ${c.tokenEnv}   # the token itself never goes in this file`,
    "versions: {}   # language version name -> version id, where channels do not publish them",
    "prune: {}      # e.g. brands: true to delete brands the manifests do not declare",
    "",
  ].join("\n");
}

/** init --from-tenant: the export of the tenant just configured; the number of files written. A failure keeps the config and says how to go on. */
async function adopt(args: InitArgs, io: Io, where: { configFile: string; dir: string }): Promise<number> {
  try {
    const result = await exportTenant({ cwd: io.cwd, env: io.env, configPath: where.configFile, tenant: args.tenant, out: where.dir });
    return result.files.length;
  } catch (e) {
    say(
      args,
      io,
      `Wrote ${path.relative(io.cwd, where.configFile)}, but the export of tenant "${args.tenant}" failed (below); once fixed, run ` +
        `'pimctl export --tenant ${args.tenant} --out ${where.dir}'.`,
    );
    throw e;
  }
}

const IGNORE_LINE = ".pimctl/";

/**
 * .pimctl/ beside the config holds the local ledger, lock and caches: machine
 * state, never a manifest to commit. An existing .gitignore is added to, never
 * rewritten; one that already ignores it is left alone. Returns the new text to write (none when kept).
 */
async function ignoreStateDir(dir: string): Promise<{ file: string; did: "wrote" | "added .pimctl/ to" | "kept"; text?: string }> {
  const file = path.join(dir, ".gitignore");
  const text = await readFile(file, "utf8").catch(() => undefined);
  const block = `# pimctl's local state (ledger, lock, caches): see pimctl's docs/state.md\n${IGNORE_LINE}\n`;
  if (text === undefined) return { file, did: "wrote", text: block };
  if (text.split(/\r?\n/).some((l) => /^\/?\.pimctl\/?(\*\*?)?$/.test(l.trim()))) return { file, did: "kept" };
  return { file, did: "added .pimctl/ to", text: `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${block}` };
}
