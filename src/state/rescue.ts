/**
 * When the ledger cannot be saved to its backend after writes were made (a Git
 * remote gone mid-apply, a full disk), it is written to a rescue file beside the
 * config instead: `.pimctl/rescue/<tenant>-<time>.json`, in the ledger's own
 * format, so `pimctl state push FILE` restores it. Synchronous on purpose: it
 * also runs when the process must end at once (a second Ctrl-C).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** `.pimctl/rescue` beside the config file (or the project directory when there is none). */
export function rescueDir(configFile: string | undefined, fallbackDir: string): string {
  return path.join(configFile ? path.dirname(configFile) : fallbackDir, ".pimctl", "rescue");
}

/** Write `text` to a new rescue file for `tenant`; never overwrites an earlier one. Returns its path. */
export function writeRescueFile(dir: string, tenant: string, text: string, now = new Date()): string {
  mkdirSync(dir, { recursive: true });
  // 20261126T001502Z: sortable, and valid in file names everywhere.
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${tenant}-${stamp}${n > 1 ? `-${n}` : ""}.json`);
    try {
      writeFileSync(file, text, { flag: "wx" });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
}

/** The command that puts a rescue file back: its path as the person would type it from where pimctl ran. */
export function restoreCommand(file: string, cwd: string, tenantFlag?: string): string {
  const rel = path.relative(cwd, file);
  return `pimctl state push ${rel && !rel.startsWith("..") ? rel : file}${tenantFlag ? ` --tenant ${tenantFlag}` : ""}`;
}
