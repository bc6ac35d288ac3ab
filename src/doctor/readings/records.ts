/**
 * Readings of records' content: whether a language version read falls back to the master text
 * where no translation exists, and the shape a category's attribute_sets is read in.
 */
import { rawAttributesInVersion } from "../../api/probes.js";
import { coerceIdList } from "../../api/wire.js";
import { evidence, quote, recordsOf, type DoctorContext } from "../context.js";
import type { Verdict } from "../types.js";

export async function detectVersionFallback(ctx: DoctorContext): Promise<Verdict<boolean>> {
  const version = ctx.versions[0];
  if (version === undefined) return { outcome: "undetermined", why: "no channel names a language version to read", evidence: [] };
  const master = new Map((ctx.lists.get("attributes")?.records ?? []).map((r) => [String(r.id), r.name]));
  if (!master.size) return { outcome: "undetermined", why: "the tenant has no attribute to read in a language version", evidence: [] };
  const a = await rawAttributesInVersion(ctx.api, version);
  if (a.status >= 300)
    return {
      outcome: "unknown",
      seen: `GET /attributes/version/${version} answered ${a.status}`,
      pimctl: "pimctl reads every language version's attributes to plan translations: plans stop with this error",
      evidence: [evidence(a, `status ${a.status}`)],
    };
  const rows = recordsOf(a.json, "attributes").filter((r) => master.has(String(r.id)));
  const show = (r: Record<string, unknown>) => evidence(a, `attribute ${String(r.id)}: name ${quote(r.name)} (master ${quote(master.get(String(r.id)))})`);
  const odd = rows.find((r) => !("name" in r) || r.name === "" || (r.name !== null && typeof r.name !== "string"));
  if (odd)
    return {
      outcome: "unknown",
      seen: `an untranslated name read as ${quote(odd.name)}`,
      pimctl: "pimctl reads an empty or missing name as no translation; no emulator reading answers this way",
      evidence: [show(odd)],
    };
  const missing = rows.find((r) => r.name === null);
  if (missing) return { outcome: "known", reading: false, evidence: [show(missing)] };
  const echoed = rows.find((r) => r.name === master.get(String(r.id)));
  if (echoed) return { outcome: "known", reading: true, evidence: [show(echoed)] };
  return {
    outcome: "undetermined",
    why: `every attribute read in version ${version} has a translation of its own`,
    candidates: [true, false],
    evidence: rows.slice(0, 1).map(show),
  };
}

type SetsRead = "objects" | "ids" | "csv";

function setsForms(v: unknown): SetsRead[] {
  if (typeof v === "string") return /^\s*(\d+\s*(,\s*\d+\s*)*)?$/.test(v) ? ["csv"] : [];
  if (!Array.isArray(v)) return [];
  if (!v.length) return ["objects", "ids"];
  if (v.every((x) => x !== null && typeof x === "object" && "id" in x)) return ["objects"];
  if (v.every((x) => (typeof x === "number" && Number.isInteger(x)) || (typeof x === "string" && /^\d+$/.test(x)))) return ["ids"];
  return [];
}

export async function detectCategoryAttributeSetsRead(ctx: DoctorContext): Promise<Verdict<SetsRead>> {
  const list = ctx.lists.get("categories");
  const withSets = (list?.records ?? []).filter((r) => "attribute_sets" in r);
  if (!list?.answer || !withSets.length) return { outcome: "undetermined", why: "no category was read with its attribute_sets", evidence: [] };
  let fits: SetsRead[] = ["objects", "ids", "csv"];
  const shown = [];
  for (const r of withSets) {
    const forms = setsForms(r.attribute_sets);
    const show = evidence(list.answer, `category ${String(r.id)}: attribute_sets ${quote(r.attribute_sets)}`);
    if (!forms.length) {
      const ids = coerceIdList(r.attribute_sets);
      return {
        outcome: "unknown",
        seen: `attribute_sets read as ${quote(r.attribute_sets)}`,
        pimctl:
          Array.isArray(ids) && ids.length
            ? `pimctl reads it as the ids ${quote(ids)}; no emulator reading sends this form, so it is untested`
            : "pimctl finds no attribute set ids in it: every plan would assign the category's sets again; do not apply",
        evidence: [show],
      };
    }
    if (forms.length === 1 && shown.length < 3) shown.push(show);
    fits = fits.filter((f) => forms.includes(f));
  }
  if (fits.length === 1) return { outcome: "known", reading: fits[0]!, evidence: shown };
  if (!fits.length)
    return {
      outcome: "unknown",
      seen: "categories read their attribute_sets in more than one shape",
      pimctl: "pimctl reads ids, objects and comma-separated text alike; no emulator reading mixes them",
      evidence: shown,
    };
  return {
    outcome: "undetermined",
    why: "every category read has no attribute sets (an empty list reads the same as objects or as ids)",
    candidates: fits,
    evidence: [],
  };
}
