/**
 * pimctl.yaml: tenants (where, which token variable or file, version ids,
 * variables), the default version mapping, the prune policy, where the
 * manifests and the ledger live. Validated with file:line errors; tokens are
 * refused here, they come from the environment or a file.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { PimctlError, PimctlErrors } from "../errors.js";
import { configSchema } from "../manifest/schema-source.js";
import { schemaErrors, validatorFor } from "../manifest/validate.js";
import { parseYaml, pointer, type ParsedYaml } from "../manifest/yaml.js";
import { decodeManifest } from "../manifest/encoding.js";
import { credentialErrors } from "./credentials.js";
import type { Config, StateConfig, TenantConfig, TranslationRules } from "./types.js";
import type { ScopeRules } from "../model/policy.js";
import type { ExternalRecords } from "../manifest/references.js";
import type { SourceLocation } from "../model/catalogue.js";
import { CONFIG_FILE, findConfig, type ConfigSearch } from "./find.js";
import { globProblem, isGlob } from "../base/name-globs.js";
import { overlayLayoutErrors } from "./overlays.js";

const DEFAULT_STATE: StateConfig = { backend: "local", remote: "origin" };

const validateConfig = await validatorFor("config", configSchema);

/**
 * The config `configPath` names, else the nearest pimctl.yaml at or above `cwd` within its Git
 * repository (find.ts). Relative paths in it (dir, ledger_dir, token_file) are relative to its folder.
 */
export async function loadConfig(opts: { configPath?: string; cwd: string; dir?: string }): Promise<Config> {
  const search = opts.configPath ? undefined : findConfig(opts.cwd);
  const file = opts.configPath ? path.resolve(opts.cwd, opts.configPath) : (search!.file ?? path.join(opts.cwd, CONFIG_FILE));
  const bytes = await readConfigBytes(file, opts);
  if (bytes === undefined) {
    // Without a config, only an explicit directory is read: never scan the working directory.
    if (!opts.dir) throw noConfig(opts.cwd, search);
    return {
      dir: path.resolve(opts.cwd, opts.dir),
      tenants: {},
      versions: {},
      prune: {},
      ledger_dir: path.resolve(opts.cwd, ".pimctl"),
      state: { ...DEFAULT_STATE },
      external: {},
      scope: {},
    };
  }
  const rel = path.relative(opts.cwd, file) || file;
  // Read as the manifests are: UTF-8 only, so a Latin-1 byte never becomes U+FFFD in a base URL or a version name.
  const decoded = decodeManifest(bytes, rel);
  if ("error" in decoded) throw new PimctlErrors([decoded.error]);
  const parsed = parseYaml(decoded.text, rel);
  const data = (parsed.data ?? {}) as Record<string, unknown>;
  const errors = parsed.errors.length ? [...parsed.errors] : configErrors(parsed, data);
  if (errors.length) throw new PimctlErrors(errors);
  const config = configOf(file, parsed, data, opts);
  // Checked once the paths are resolved, before any command reads a manifest or a tenant.
  const layout = overlayLayoutErrors(config, opts.cwd, (keys) => parsed.at(pointer(keys)));
  if (layout.length) throw new PimctlErrors(layout);
  return config;
}

/** The config file's bytes; undefined when the file searched for (not named with --config) does not exist. */
async function readConfigBytes(file: string, opts: { configPath?: string; cwd: string }): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (e) {
    if (opts.configPath || (e as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new PimctlError(
        "config",
        `cannot read the config file ${path.relative(opts.cwd, file) || file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
    return undefined;
  }
}

/** Everything wrong with a parsed config: tokens written in it (removed from data), the schema, each tenant's address and token, credentials in URLs. */
function configErrors(parsed: ParsedYaml, data: Record<string, unknown>): PimctlError[] {
  const errors = tokensWritten(parsed, data);
  errors.push(...schemaErrors(validateConfig, parsed, data));
  for (const [name, t] of Object.entries((data.tenants ?? {}) as Record<string, TenantConfig>)) {
    const at = parsed.at(pointer(["tenants", name]));
    if (!t.base_url && !t.hash)
      errors.push(new PimctlError("config", `tenant "${name}" needs base_url, or hash and region with a url_template`, { location: at }));
    if (t.hash && !t.base_url && !t.url_template && !data.url_template)
      errors.push(new PimctlError("config", `tenant "${name}" gives a hash but no url_template is configured`, { location: at }));
    if (!t.token_env && !t.token_file)
      errors.push(new PimctlError("config", `tenant "${name}" needs token_env (an environment variable) or token_file`, { location: at }));
  }
  errors.push(...credentialErrors(data, parsed));
  errors.push(...rolloutErrors(data, parsed));
  return errors;
}

/** A token, api_token or password written in a tenant: refused at its key, and removed so the schema does not report it twice. */
function tokensWritten(parsed: ParsedYaml, data: Record<string, unknown>): PimctlError[] {
  const errors: PimctlError[] = [];
  const tenants = data.tenants;
  if (!tenants || typeof tenants !== "object") return errors;
  for (const [name, t] of Object.entries(tenants as Record<string, Record<string, unknown>>)) {
    for (const secret of ["token", "api_token", "password"]) {
      if (!t || typeof t !== "object" || !(secret in t)) continue;
      errors.push(
        new PimctlError(
          "config",
          `tenant "${name}": a token must never be written in the config; remove "${secret}" and name an environment variable with ` +
            `token_env (or a file with token_file)`,
          {
            location: parsed.at(`${pointer(["tenants", name, secret])}#key`),
          },
        ),
      );
      delete t[secret];
    }
  }
  return errors;
}

/** The valid config as pimctl uses it: paths absolute (relative to the file's folder), defaults filled in. */
function configOf(file: string, parsed: ParsedYaml, data: Record<string, unknown>, opts: { cwd: string; dir?: string }): Config {
  const base = path.dirname(file);
  const tenants: Record<string, TenantConfig> = {};
  for (const [name, t] of Object.entries((data.tenants ?? {}) as Record<string, TenantConfig>)) {
    tenants[name] = {
      ...t,
      name,
      ...(t.versions ? { versions_at: entryLocations(parsed, ["tenants", name, "versions"], t.versions) } : {}),
      ...(t.variables ? { variables: Object.fromEntries(Object.entries(t.variables).map(([k, v]) => [k, String(v)])) } : {}),
      ...(t.token_file ? { token_file: path.resolve(base, t.token_file) } : {}),
      ...(t.overlay ? { overlay: path.resolve(base, t.overlay) } : {}),
    };
  }
  return {
    file,
    dir: opts.dir ? path.resolve(opts.cwd, opts.dir) : path.resolve(base, (data.dir as string | undefined) ?? "."),
    tenants,
    versions: (data.versions ?? {}) as Record<string, number>,
    ...(data.versions ? { versions_at: entryLocations(parsed, ["versions"], data.versions as object) } : {}),
    prune: (data.prune ?? {}) as Config["prune"],
    ledger_dir: path.resolve(base, (data.ledger_dir as string | undefined) ?? ".pimctl"),
    state: { ...DEFAULT_STATE, ...((data.state ?? {}) as Partial<StateConfig>) },
    ...(data.url_template ? { url_template: data.url_template as string } : {}),
    external: (data.external ?? {}) as ExternalRecords,
    scope: scopeOf(data),
    ...(data.translations ? { translations: data.translations as TranslationRules } : {}),
    ...(data.overlays ? { overlays: path.resolve(base, data.overlays as string) } : {}),
    ...(data.rollout ? { rollout: data.rollout as string[][] } : {}),
  };
}

/** The scope rules as written; their selectors are checked by plan/scope.ts parseScope when the project's config is opened. */
function scopeOf(data: Record<string, unknown>): ScopeRules {
  return {
    ...(data.ignore ? { ignore: data.ignore as string[] } : {}),
    ...(data.protect ? { protect: data.protect as string[] } : {}),
    ...(data.max_deletes !== undefined ? { max_deletes: data.max_deletes as number | string } : {}),
  };
}

function noConfig(cwd: string, search: ConfigSearch | undefined): PimctlError {
  const repository = search?.repository;
  const above = repository && repository !== path.resolve(cwd) ? ` or a folder above it up to ${repository} (the Git repository's root)` : "";
  const notUsed = search?.notUsed;
  return new PimctlError("config", `no ${CONFIG_FILE} found in ${cwd}${above}`, {
    details: [
      ...(notUsed
        ? [
            `${path.relative(cwd, notUsed)} is above this folder, outside a Git repository, where pimctl looks in the working directory only: ` +
              `run from ${path.relative(cwd, path.dirname(notUsed))}, or pass --config ${path.relative(cwd, notUsed)}`,
          ]
        : []),
      "create one with 'pimctl init' (it asks for the tenant's address and the token's environment variable), or name one with --config FILE",
      "to validate a directory without a config: pimctl validate DIR",
    ],
  });
}

/** Version name -> id for a tenant: the config's mapping, the tenant's own winning. */
export function versionMap(config: Config, tenant: TenantConfig | undefined): Record<string, number> {
  return { ...config.versions, ...(tenant?.versions ?? {}) };
}

/** Where each entry of versionMap(config, tenant) is written: the tenant's own line where it has one. */
export function versionSources(config: Config, tenant: TenantConfig | undefined): Record<string, SourceLocation> {
  return { ...config.versions_at, ...(tenant?.versions_at ?? {}) };
}

/** The location of each entry's value in a map of the config (`versions:`). */
function entryLocations(parsed: ParsedYaml, at: string[], map: object): Record<string, SourceLocation> {
  return Object.fromEntries(Object.keys(map).map((k) => [k, parsed.at(pointer([...at, k]))]));
}

/**
 * A plain name in `rollout:` that no tenant has is a typo that would leave a tenant to the last wave,
 * and a glob that cannot be read (`[z-a]`) would stop every fleet command: each refused at its line.
 */
function rolloutErrors(data: Record<string, unknown>, parsed: ParsedYaml): PimctlError[] {
  const names = new Set(Object.keys((data.tenants ?? {}) as object));
  const rollout = Array.isArray(data.rollout) ? (data.rollout as unknown[]) : [];
  return rollout.flatMap((wave, w) =>
    (Array.isArray(wave) ? wave : []).flatMap((entry: unknown, i) => {
      if (typeof entry !== "string") return [];
      const location = parsed.at(pointer(["rollout", String(w), String(i)]));
      const problem = isGlob(entry) ? globProblem(entry) : undefined;
      if (problem) return [new PimctlError("config", `rollout: wave ${w + 1}: ${problem}`, { location })];
      if (isGlob(entry) || names.has(entry)) return [];
      return [
        new PimctlError("config", `rollout: wave ${w + 1} names "${entry}", which is not a configured tenant`, {
          location,
          details: [`configured tenants: ${[...names].sort().join(", ") || "(none)"}`],
        }),
      ];
    }),
  );
}
