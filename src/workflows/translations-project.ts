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
import { loadTemplates, variableNames } from "../translations/load-templates.js";

export interface TranslationProject {
  config: Config;
  desired: Catalogue;
  lock: TranslationLock;
  texts: TranslatableText[];
  variables: Set<string>;
  /** What was done about a killed earlier write (writers only), one line each. */
  earlier: string[];
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
  const desired = await loadTemplates(config, config.dir, opts.cwd, variables);
  const lock = await readLock(file);
  return { config, desired, lock, texts: translatableTexts(desired), variables, earlier };
}
