/**
 * The project as the translation workflows read it: pimctl.yaml, the manifests
 * as templates (whatever the tenant) and translations.lock.yaml. A workflow
 * that writes first settles what a killed earlier write left (src/files/commit-journal.ts),
 * so it reads whole files, all old or all new.
 */
import path from "node:path";
import type { Catalogue } from "../model/catalogue.js";
import type { ProjectOptions } from "./project.js";
import { projectConfig } from "./project.js";
import type { Config } from "../config/index.js";
import { settleInterruptedCommits } from "../files/atomic-files.js";
import { lockPath, readLock, type TranslationLock } from "../translations/lockfile.js";
import { translatableTexts, type TranslatableText } from "../plan/texts.js";
import { asTemplates, loadTemplates, variableNames } from "../translations/load-templates.js";
import { versionMap } from "../config/index.js";
import { hasOverlays, overlayDir, overlayFolders } from "../config/overlays.js";
import { pickTenant } from "../tenant.js";
import { PimctlErrors } from "../errors.js";
import { ManifestReader, loadComposed } from "../manifest/overlay-load.js";
import type { ParsedYaml } from "../manifest/yaml.js";

export interface TranslationProject {
  config: Config;
  desired: Catalogue;
  lock: TranslationLock;
  texts: TranslatableText[];
  variables: Set<string>;
  /** What was done about a killed earlier write (writers only), one line each. */
  earlier: string[];
  /** --tenant X with an overlay: its folder, and where each composed value is written (base or overlay). */
  overlay?: string;
  places?: ReadonlyMap<string, ParsedYaml>;
}

/**
 * The manifests as translators see them, whatever the tenant: a `${name}` reference in a text
 * stays `${name}` (every tenant's variable is read as itself), so a master text is the same
 * template for every tenant and a translation keeps the reference.
 */
export async function openProject(opts: ProjectOptions, writes = false): Promise<TranslationProject> {
  const config = await projectConfig(opts);
  const file = lockPath(config, opts.cwd);
  const earlier = writes ? settleInterruptedCommits(path.dirname(file), (f) => path.relative(opts.cwd, f) || f) : [];
  const variables = variableNames(config);
  // A tenant named is checked even without overlays: a misspelt --tenant must not pass unnoticed.
  const tenant = opts.tenant !== undefined ? pickTenant(config, opts.tenant).name : undefined;
  const overlay = tenant !== undefined && hasOverlays(config) ? overlayDir(config, tenant) : undefined;
  const composed = overlay ? await loadTenantTemplates(config, config.dir, overlay, opts.cwd, variables) : undefined;
  const desired = composed?.catalogue ?? (await loadTemplates(config, config.dir, opts.cwd, variables));
  const lock = await readLock(file);
  return { config, desired, lock, texts: translatableTexts(desired), variables, earlier, ...(composed ? { overlay, places: composed.places } : {}) };
}

/**
 * A tenant's composed manifests (base and overlay folder) read as templates: what translations
 * status, export and import see for `--tenant X` when X has an overlay.
 */
export async function loadTenantTemplates(
  config: Config,
  dir: string,
  overlay: string,
  cwd: string,
  variables: ReadonlySet<string>,
): Promise<{ catalogue: Catalogue; places: ReadonlyMap<string, ParsedYaml> }> {
  const exclude = overlayFolders(config).map((d) => path.join(dir, path.relative(config.dir, d)));
  const result = await loadComposed(
    dir,
    overlay,
    {
      cwd,
      variables: asTemplates(variables),
      listedVersions: Object.keys(versionMap(config, undefined)),
      ...(config.external ? { external: config.external } : {}),
      ...(exclude.length ? { exclude } : {}),
    },
    new ManifestReader(cwd),
  );
  if (result.errors.length) throw new PimctlErrors(result.errors);
  return { catalogue: result.catalogue, places: result.places ?? new Map() };
}
