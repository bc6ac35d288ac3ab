/** The units of one language version for translators: all texts, or only the missing and/or outdated ones. */
import type { Unit } from "./formats/units.js";
import type { TranslationLock } from "./lockfile.js";
import { textState } from "./status.js";
import { isWritable, textId, type TranslatableText } from "../plan/texts.js";

export interface UnitSelection {
  /** Only texts with no translation (with `outdated`: those and the outdated ones). */
  missing?: boolean;
  /** Only translations whose master text changed since they were made. */
  outdated?: boolean;
}

export interface ExportedUnits {
  units: Unit[];
  /** Texts the selection holds that API v1 cannot write (brand and category versions): left out, never units. */
  leftOut: number;
}

export function exportUnits(texts: readonly TranslatableText[], lock: TranslationLock, version: string, select: UnitSelection = {}): ExportedUnits {
  const all = !select.missing && !select.outdated;
  const units: Unit[] = [];
  let leftOut = 0;
  for (const t of texts) {
    const state = textState(t, version, lock);
    if (!all && !(select.missing && state === "missing") && !(select.outdated && state === "outdated")) continue;
    if (!isWritable(t)) {
      leftOut++;
      continue;
    }
    units.push({
      id: textId(t, version),
      source: t.master,
      target: t.translations[version] ?? "",
      state: state === "missing" ? "new" : state === "outdated" ? "needs-review" : "translated",
      notes: [...t.notes, ...(state === "outdated" ? ["outdated: the master text changed after this translation was made"] : [])],
    });
  }
  return { units, leftOut };
}
