/**
 * What a plan does to translation coverage, per language version: texts it
 * adds to the version, translations it changes, translations it leaves
 * behind (the master text changes, the translation does not: now outdated),
 * and master texts it creates or changes with no translation in the version
 * (missing). Pure, from the actions and the desired catalogue; renderers
 * only print it. A version text equal to the master text counts as not
 * translated before the plan: reads of a version with no text may return
 * the master's (the emulator's default; API v1 allows it). API v1 cannot write brand and category versions: those
 * actions are "unsupported" and add nothing.
 */
import { compareText, type Catalogue } from "../model/catalogue.js";
import { translatableTexts, type TranslatableText } from "../translations/texts.js";
import { parseAddress, printAddress, type Segment } from "./address.js";
import type { Action, TranslationCoverage } from "./types.js";

/** Master fields whose text a version holds only as a whole (type values, brand attribute values): no field segment. */
const WHOLE_VALUE = new Set(["type_value", "type_value_version", "brand_attribute_value"]);

const key = (record: readonly Segment[], field: string | undefined) => `${printAddress({ segments: record as [Segment, ...Segment[]] })}|${field ?? ""}`;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

export function translationCoverage(actions: readonly Action[], desired: Catalogue): TranslationCoverage[] {
  if (!desired.versions.length) return [];
  let texts: Map<string, TranslatableText> | undefined;
  const textOf = (k: string) => (texts ??= new Map(translatableTexts(desired).map((t) => [key(t.record, t.field), t]))).get(k);
  const counts = new Map(desired.versions.map((v) => [v, { version: v, added: 0, updated: 0, outdated: 0, missing: 0 }]));
  /** Version texts this plan writes, as version|text key. */
  const written = new Set<string>();
  const masterChanges: Array<{ k: string; created: boolean }> = [];
  /** The tenant's master text before this plan, by text key: a version "translation" equal to it is the API's fallback. */
  const masterBefore = new Map<string, unknown>();
  const versionActions: Array<{ a: Action; version: string; record: Segment[] }> = [];
  for (const a of actions) {
    const parsed = parseAddress(a.address);
    if (!parsed || a.op === "unsupported") continue;
    const at = parsed.segments.findIndex((s) => s.type === "version");
    if (at >= 1) versionActions.push({ a, version: parsed.segments[at]!.key, record: parsed.segments.slice(0, at) });
    else if (a.op !== "delete") {
      for (const ch of a.changes) {
        if (blank(ch.after) || (WHOLE_VALUE.has(a.type) && ch.field !== "value")) continue;
        const k = key(parsed.segments, WHOLE_VALUE.has(a.type) ? undefined : ch.field);
        if (!textOf(k)) continue;
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
