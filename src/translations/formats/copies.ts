/**
 * One unit per id, whatever the tools did to the file. Converters can leave a unit in a file
 * twice: `po2xliff -t template.xlf` keeps the template's units and appends the PO's as
 * copies (namespace-prefixed ones). Copies that agree are one unit: the same source, and the
 * same translation or none (a template's empty target adds nothing); a translation is still
 * marked for review when any copy with it says so. Copies with different sources or
 * different translations are an error naming the unit: pimctl never picks one of two
 * translations. A file in which no unit is found is an error too, never "0 written".
 */
import { PimctlError, PimctlErrors } from "../../errors.js";
import type { ReadUnit } from "./units.js";

export function oneUnitPerId(units: readonly ReadUnit[], name: string): ReadUnit[] {
  if (!units.length)
    throw new PimctlError("invalid_value", `${name}: no translation unit found; is it a file from 'pimctl translations export' (XLIFF, PO or CSV)?`);
  const byId = new Map<string, ReadUnit[]>();
  for (const u of units) {
    const copies = byId.get(u.id);
    if (copies) copies.push(u);
    else byId.set(u.id, [u]);
  }
  const errors: PimctlError[] = [];
  const out: ReadUnit[] = [];
  for (const [id, copies] of byId) {
    if (copies.length === 1) {
      out.push(copies[0]!);
      continue;
    }
    const sources = new Set(copies.map((c) => c.source));
    const translated = copies.filter((c) => c.target !== "");
    const targets = new Set(translated.map((c) => c.target));
    if (sources.size > 1 || targets.size > 1) {
      const what = sources.size > 1 ? `source texts ${list(sources)}` : `translations ${list(targets)}`;
      errors.push(new PimctlError("duplicate", `${name}: unit ${id} appears twice, with different ${what}; keep one of them`));
      continue;
    }
    const kept = translated.length ? translated : copies;
    out.push({ ...kept[0]!, needsReview: kept.some((c) => c.needsReview) });
  }
  if (errors.length) throw new PimctlErrors(errors);
  return out;
}

const list = (texts: ReadonlySet<string>): string => [...texts].map((t) => JSON.stringify(t)).join(" and ");
