/**
 * A translation unit as every exchange format carries it: the id is the
 * text's typed address (it names the record, the language version and the
 * field, and round-trips through src/plan/address.ts), the source is the
 * master text, the target the current translation.
 */
export type UnitState = "new" | "translated" | "needs-review";

export interface Unit {
  id: string;
  source: string;
  /** "" when there is no translation yet. */
  target: string;
  state: UnitState;
  /** Context for the translator: kind, the attribute a value belongs to, the category path, a length limit. */
  notes: string[];
}

export interface UnitFile {
  /** The language version's name in pimctl ("Spanish"). */
  version: string;
  /** BCP 47 codes for the file headers (XLIFF srcLang/trgLang, PO Language). */
  sourceLanguage: string;
  targetLanguage: string;
  units: Unit[];
}

/** What import needs back from a file. */
export interface ReadUnit {
  id: string;
  source: string;
  target: string;
  /** Still marked for review (PO fuzzy, XLIFF needs-review): import leaves it out. */
  needsReview: boolean;
}

export const EXPORT_FORMATS = ["xliff", "xliff2", "po", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Language version names are names ("French"); the files' headers want codes.
 * Common names map to their code; any other becomes a private-use tag
 * ("x-klingon"), which XML's xml:lang and gettext both accept. --target-lang overrides.
 */
const CODES: Record<string, string> = {
  arabic: "ar",
  chinese: "zh",
  czech: "cs",
  danish: "da",
  dutch: "nl",
  english: "en",
  finnish: "fi",
  french: "fr",
  german: "de",
  greek: "el",
  hungarian: "hu",
  italian: "it",
  japanese: "ja",
  korean: "ko",
  norwegian: "nb",
  polish: "pl",
  portuguese: "pt",
  romanian: "ro",
  russian: "ru",
  slovak: "sk",
  spanish: "es",
  swedish: "sv",
  turkish: "tr",
  ukrainian: "uk",
};

export function languageCode(version: string): string {
  const key = version.trim().toLowerCase();
  return (
    CODES[key] ??
    `x-${
      key
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 8) || "version"
    }`
  );
}

/**
 * gettext requires msgid and msgstr to both end with a line break, or neither: a translation
 * takes its master text's final line break (a YAML `|` block's), on the way out and back in.
 */
export function sameLineEnd(target: string, source: string): string {
  if (target === "") return target;
  const bare = target.replace(/\n+$/, "");
  return source.endsWith("\n") ? `${bare}\n` : bare;
}
