/**
 * translations.lock.yaml: for each translation (its unit id, which names the
 * record, the language version and the field), the fingerprint of the master
 * text it was made or last reviewed against. Committed beside pimctl.yaml, so
 * "outdated" is known offline, in every clone and pipeline, and a pull request
 * shows which translations were (re)confirmed.
 *
 * Why a lock file and not a field in the manifests: the fingerprints are
 * machine data that people never edit; in the manifests they would double
 * every translated line, and the manifests' schema and hand layout stay as
 * they are. One sorted line per translation merges like a package lock.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import type { Config } from "../config/index.js";
import { PimctlError } from "../errors.js";
import { compareText } from "../model/catalogue.js";

export const LOCK_FILE = "translations.lock.yaml";
const LOCK_VERSION = 1;

export interface TranslationLock {
  file: string;
  /** Unit id -> fingerprint of the master text. */
  entries: Map<string, string>;
}

/** sha256 of the master text, 16 hex digits: enough to tell texts apart, short enough to read in a diff. */
export function masterFingerprint(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/** Beside pimctl.yaml (or in the working directory without one). */
export function lockPath(config: Config, cwd: string): string {
  return path.join(config.file ? path.dirname(config.file) : cwd, LOCK_FILE);
}

export async function readLock(file: string): Promise<TranslationLock> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { file, entries: new Map() };
    throw new PimctlError("io", `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    throw new PimctlError(
      "yaml_syntax",
      `${file} is not valid YAML (${(e as Error).message.split("\n")[0]}); restore it from Git or delete it (translations then count as made ` +
        `against today's master texts)`,
    );
  }
  const doc = (data ?? {}) as { version?: unknown; translations?: unknown };
  if (doc.version !== undefined && doc.version !== LOCK_VERSION)
    throw new PimctlError("config", `${file} has version ${String(doc.version)}; this pimctl reads version ${LOCK_VERSION}`);
  const entries = new Map<string, string>();
  for (const [k, v] of Object.entries((doc.translations ?? {}) as Record<string, unknown>)) if (typeof v === "string") entries.set(k, v);
  return { file, entries };
}

/** Sorted, one entry a line, keys as JSON strings (valid YAML double-quoted scalars). */
export function serialiseLock(lock: TranslationLock): string {
  const keys = [...lock.entries.keys()].sort(compareText);
  return [
    "# What each translation was made or reviewed against: unit id -> fingerprint of the master text.",
    "# Written by 'pimctl translations import' and 'pimctl translations mark-reviewed'; commit it with the manifests.",
    `version: ${LOCK_VERSION}`,
    keys.length ? "translations:" : "translations: {}",
    ...keys.map((k) => `  ${JSON.stringify(k)}: ${lock.entries.get(k)}`),
    "",
  ].join("\n");
}
