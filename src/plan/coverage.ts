/**
 * What a plan does to translation coverage, per language version: texts it
 * adds to the version, translations it changes, translations it leaves
 * behind (the master text changes, the translation does not: now outdated),
 * and master texts it creates or changes with no translation in the version
 * (missing). Pure, from the actions and the desired catalogue; renderers
 * only print it. A version text equal to the master text counts as not
 * translated before the plan: reads of a version with no text may return
 * the master's (the emulator's default; API v1 allows it). Only translation units count (plan/texts.ts,
 * isWritable): API v1 cannot write brand and category versions, so their texts are no units and add nothing
 * (their version actions are "unsupported", their master changes leave no unit missing or outdated).
 *
 * Texts are counted as templates, as translations status counts them: given the manifests' templates
 * (plan/text-templates.ts), a change whose old text is an instance of today's template (only a
 * `${variable}`'s value changed) is no change of the text: no translation is updated or outdated by it.
 */
import { compareText, type Catalogue } from "../model/catalogue.js";
import { ATTRIBUTE, BRAND, CATEGORY, versionedFields } from "../model/schema.js";
import { isInstanceOf, type TextTemplates } from "./text-templates.js";
import { isWritable, translatableTexts, type TranslatableText } from "./texts.js";
import { printAddress, type Segment } from "./address.js";
import type { Action, TranslationCoverage } from "./types.js";

/** Master fields whose text a version holds only as a whole (type values, brand attribute values): no field segment. */
const WHOLE_VALUE = new Set(["type_value", "type_value_version", "brand_attribute_value"]);

/** A text's key: its record's printed address and the field (none for whole values). */
const key = (record: string, field: string | undefined) => `${record}|${field ?? ""}`;
const textKey = (t: TranslatableText) => key(printAddress({ segments: t.record as [Segment, ...Segment[]] }), t.field);

/**
 * An address's version segment, found as text: keys are printed as JSON
 * strings, whose quotes are escaped, so `.version["` only ever starts the
 * segment. Plans are large: no parsing per action.
 */
const VERSION = '.version["';

/** Master fields that have translations (the versioned fields of the tables, and a value's text): others are skipped before any lookup. */
const TRANSLATED_FIELDS = new Set(["value", ...versionedFields(ATTRIBUTE), ...versionedFields(CATEGORY), ...versionedFields(BRAND)]);

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** The units of some texts, by text key. */
const unitsByKey = (texts: readonly TranslatableText[]) => new Map(texts.flatMap((t) => (isWritable(t) ? [[textKey(t), t] as const] : [])));

export function translationCoverage(actions: readonly Action[], desired: Catalogue, templates?: TextTemplates): TranslationCoverage[] {
  if (!desired.versions.length) return [];
  let texts: Map<string, TranslatableText> | undefined;
  const textOf = (k: string) => (texts ??= unitsByKey(translatableTexts(desired))).get(k);
  let byTemplate: Map<string, TranslatableText> | undefined;
  /** The text (a version's, or the master's) was an instance of today's template before the plan: only a variable's value changes. */
  const sameTemplate = (k: string, version: string | undefined, before: unknown): boolean => {
    if (!templates) return false;
    const t = (byTemplate ??= unitsByKey(templates.texts)).get(k);
    const template = version === undefined ? t?.master : t?.translations[version];
    return template !== undefined && template.includes("${") && isInstanceOf(template, before, templates.variables);
  };
  const counts = new Map(desired.versions.map((v) => [v, { version: v, added: 0, updated: 0, outdated: 0, missing: 0 }]));
  /** Version texts this plan writes, as version|text key. */
  const written = new Set<string>();
  const masterChanges: Array<{ k: string; created: boolean }> = [];
  /** The tenant's master text before this plan, by text key: a version "translation" equal to it is the API's fallback. */
  const masterBefore = new Map<string, unknown>();
  const versionActions: Array<{ a: Action; version: string; record: string }> = [];
  for (const a of actions) {
    if (a.op === "unsupported") continue;
    const at = a.address.indexOf(VERSION);
    if (at > 0) {
      const version = JSON.parse(a.address.slice(at + VERSION.length - 1, -1)) as string;
      versionActions.push({ a, version, record: a.address.slice(0, at) });
    } else if (a.op !== "delete") {
      for (const ch of a.changes) {
        if (!TRANSLATED_FIELDS.has(ch.field) || blank(ch.after) || (WHOLE_VALUE.has(a.type) && ch.field !== "value")) continue;
        const k = key(a.address, WHOLE_VALUE.has(a.type) ? undefined : ch.field);
        if (!textOf(k) || sameTemplate(k, undefined, ch.before)) continue;
        masterChanges.push({ k, created: blank(ch.before) });
        masterBefore.set(k, ch.before);
      }
    }
  }
  for (const { a, version, record } of versionActions) {
    const c = counts.get(version);
    if (!c) continue;
    for (const ch of a.changes) {
      if (blank(ch.after)) continue;
      const k = key(record, WHOLE_VALUE.has(a.type) ? undefined : ch.field);
      if (sameTemplate(k, version, ch.before)) continue;
      written.add(`${version}|${k}`);
      // Where a version has no text, reads may answer with the master's (the emulator's default, and a reading API v1 allows).
      const untranslated = blank(ch.before) || ch.before === textOf(k)?.master || (masterBefore.has(k) && ch.before === masterBefore.get(k));
      if (untranslated) c.added++;
      else c.updated++;
    }
  }
  for (const { k, created } of masterChanges) {
    const t = textOf(k)!;
    for (const c of counts.values()) {
      if (t.translations[c.version] === undefined) c.missing++;
      else if (!created && !written.has(`${c.version}|${k}`)) c.outdated++;
    }
  }
  return [...counts.values()].filter((c) => c.added + c.updated + c.outdated + c.missing > 0).sort((a, b) => compareText(a.version, b.version));
}
