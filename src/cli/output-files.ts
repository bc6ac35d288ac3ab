/**
 * The files a command writes only after it has read the tenant (plan --out, --html,
 * --print-to; drift and diff --print-to; apply --report): a directory that is missing or
 * not writable is refused before anything is read, not after a read of minutes.
 */
import { access, constants } from "node:fs/promises";
import path from "node:path";
import { PimctlError } from "../errors.js";

/** Each option's file, by the option's name; undefined when not given. */
export async function refuseUnwritable(cwd: string, files: Record<string, string | undefined>): Promise<void> {
  for (const [option, file] of Object.entries(files)) {
    if (!file) continue;
    const dir = path.dirname(path.resolve(cwd, file));
    try {
      await access(dir, constants.W_OK);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : "is not writable";
      throw new PimctlError("io", `--${option} ${file}: the directory ${dir} ${why}; nothing was read from the tenant`);
    }
  }
}
