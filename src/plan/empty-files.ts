/**
 * Deletes while a manifest file declares nothing (src/manifest/empty-files.ts). pimctl cannot tell
 * what such a file held: the ledger knows which records pimctl manages, by id, but not which file
 * declared them, and Git history is not pimctl's to read. So while one is there, a plan that
 * deletes anything is refused, as one over max_deletes is (exit 3, before any write), unless the
 * person planning says the empty file is meant (--allow-empty-files): one rule, said once, that
 * covers a file emptied by mistake, cut at a line, or saved empty by an editor. Removing the file
 * is the other way: a file that is not there declares nothing either, and says so by its absence.
 * Pure: checks a finished plan.
 */
import { PimctlError } from "../errors.js";
import { plural } from "../plural.js";
import type { Plan } from "./types.js";

export const ALLOW_EMPTY_FILES_FLAG = "--allow-empty-files";

const WHAT = "declares nothing (it is empty, or holds only comments)";

/** One warning per such file, for the plan's warnings. */
export function emptyFileWarnings(files: readonly string[]): string[] {
  return files.map(
    (f) =>
      `${f} ${WHAT}: a plan that deletes anything is refused while it does (${ALLOW_EMPTY_FILES_FLAG} plans the deletes anyway); ` +
      "restore its entries, or remove the file",
  );
}

/** Throws (policy, exit 3) when the plan deletes while a file declares nothing, unless allowed. */
export function refuseDeletesWhileEmpty(plan: Plan, files: readonly string[], allow: boolean): void {
  const deletes = plan.actions.filter((a) => a.op === "delete");
  if (allow || !files.length || !deletes.length) return;
  const named = files.length === 1 ? files[0]! : `${files.slice(0, -1).join(", ")} and ${files.at(-1)!}`;
  const what = files.length === 1 ? WHAT : "declare nothing (each is empty, or holds only comments)";
  throw new PimctlError("policy_refused", `the plan deletes ${plural(deletes.length, "record")} while ${named} ${what}; nothing was applied`, {
    details: [
      "a manifest file emptied by mistake, or cut short at a line, looks like this: pimctl cannot tell what it declared, " +
        "so it deletes nothing while it is so",
      `restore its entries; remove the file if it is meant to declare nothing; or pass ${ALLOW_EMPTY_FILES_FLAG} to plan the deletes anyway`,
    ],
  });
}
