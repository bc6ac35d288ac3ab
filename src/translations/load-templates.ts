/**
 * The manifests loaded as templates (src/plan/text-templates.ts): every tenant's `${name}` is
 * read as itself, so a text is the same template for every tenant. What translations status,
 * export and import read, and what a plan's coverage counts on (workflows/plan.ts).
 */
import path from "node:path";
import { versionMap, type Config } from "../config/index.js";
import { overlayFolders } from "../config/overlays.js";
import { PimctlErrors } from "../errors.js";
import { loadManifests } from "../manifest/index.js";
import type { Catalogue } from "../model/catalogue.js";

/** Every tenant's variable names. */
export const variableNames = (config: Config): Set<string> => new Set(Object.values(config.tenants).flatMap((t) => Object.keys(t.variables ?? {})));

/** Each variable read as its own reference: `${name}` loads as `${name}`. */
export const asTemplates = (variables: ReadonlySet<string>): Record<string, string> => Object.fromEntries([...variables].map((n) => [n, `\${${n}}`]));

export async function loadTemplates(config: Config, dir: string, cwd: string, variables: ReadonlySet<string>): Promise<Catalogue> {
  const result = await loadManifests(dir, {
    cwd,
    variables: asTemplates(variables),
    listedVersions: Object.keys(versionMap(config, undefined)),
    ...(config.external ? { external: config.external } : {}),
    // Overlay folders kept inside the manifest directory are tenants' own, not part of the shared texts.
    ...(overlayFolders(config).length ? { exclude: overlayFolders(config).map((d) => path.join(dir, path.relative(config.dir, d))) } : {}),
  });
  if (result.errors.length) throw new PimctlErrors(result.errors);
  return result.catalogue;
}
