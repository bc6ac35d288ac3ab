/**
 * The exact-match searches: how one says "nothing found" (a name no record can have: doctor's
 * prefix and a random tail), and whether it finds a name in another case (a name the tenant has,
 * with its case swapped).
 */
import { rawSearch, PROBE_SEARCHES, type RawAnswer, type SearchKind } from "../../api/probes.js";
import { evidence, quote, type DoctorContext } from "../context.js";
import { PROBE_PREFIX } from "../probe-records.js";
import type { Verdict } from "../types.js";

type SearchEmpty = "empty-body" | "404" | "empty-array" | "null";

/** The records a search answer holds: under its key, as a bare record, or as a list. */
function hits(a: RawAnswer, kind: SearchKind): Array<Record<string, unknown>> {
  if (a.status >= 300) return [];
  const j = a.json;
  const inner =
    j !== null && typeof j === "object" && !Array.isArray(j) && PROBE_SEARCHES[kind].key in j ? (j as Record<string, unknown>)[PROBE_SEARCHES[kind].key] : j;
  const list = Array.isArray(inner) ? inner : [inner];
  return list.filter((r): r is Record<string, unknown> => r !== null && typeof r === "object" && "id" in r);
}

/** The form of a miss, or undefined when the answer is none of the table's forms. */
function missForm(a: RawAnswer): SearchEmpty | undefined {
  if (a.status === 404) return "404";
  if (a.status >= 300) return undefined;
  const t = a.text.trim();
  if (!t) return "empty-body";
  if (t === "null") return "null";
  if (Array.isArray(a.json) && a.json.length === 0) return "empty-array";
  return undefined;
}

export async function detectSearchEmpty(ctx: DoctorContext): Promise<Verdict<SearchEmpty>> {
  const name = `${PROBE_PREFIX}absent-${Math.random().toString(36).slice(2, 10)}`;
  const a = await ctx.memo("search-absent", () => rawSearch(ctx.api, "brands", name));
  const form = missForm(a);
  const shows = `status ${a.status}, body ${a.text.trim() ? quote(a.text.trim()) : "empty"}`;
  if (form) return { outcome: "known", reading: form, evidence: [evidence(a, shows)] };
  // What pimctl makes of it: its own search, on the same name.
  const read = await ctx.api.searchBrand(name).then(
    (r) => (r === null ? "reads it as nothing found" : "would take the record answered for a match"),
    (e: unknown) => `stops with an error there (${(e as Error).message})`,
  );
  return {
    outcome: "unknown",
    seen: `a search for a name no brand has answered ${shows}`,
    pimctl:
      `pimctl ${read} (src/api/core.ts search: only a record named exactly as asked is a match); after a lost create it then looks the record up ` +
      "in the full list; no emulator reading answers this way",
    evidence: [evidence(a, shows)],
  };
}

/** A name with letters whose other case no record of the list has: the case probe's subject. */
function caseSubject(ctx: DoctorContext): { kind: SearchKind; name: string; swapped: string } | undefined {
  const swap = (s: string) => [...s].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join("");
  for (const kind of Object.keys(PROBE_SEARCHES) as SearchKind[]) {
    const names = (ctx.lists.get(kind)?.records ?? []).map((r) => r.name).filter((n): n is string => typeof n === "string");
    const taken = new Set(names);
    const name = names.find((n) => swap(n) !== n && !taken.has(swap(n)));
    if (name) return { kind, name, swapped: swap(name) };
  }
  return undefined;
}

export async function detectSearchCase(ctx: DoctorContext): Promise<Verdict<"sensitive" | "insensitive">> {
  const subject = caseSubject(ctx);
  if (!subject)
    return {
      outcome: "undetermined",
      why: "the tenant has no brand, attribute or attribute set whose name has letters to search in another case",
      evidence: [],
    };
  const a = await rawSearch(ctx.api, subject.kind, subject.swapped);
  const found = hits(a, subject.kind);
  const shows = found.length
    ? `found ${found.map((r) => quote(r.name)).join(", ")}`
    : `nothing found (status ${a.status}, ${a.text.trim() ? quote(a.text.trim()) : "empty body"})`;
  const ev = [evidence(a, `${shows}; the tenant has ${quote(subject.name)}`)];
  if (!found.length && (missForm(a) || a.status < 300)) return { outcome: "known", reading: "sensitive", evidence: ev };
  if (found.length && found.every((r) => r.name === subject.name)) return { outcome: "known", reading: "insensitive", evidence: ev };
  return {
    outcome: "unknown",
    seen: found.length ? `searching ${quote(subject.swapped)} found another name` : `the search answered ${a.status}`,
    pimctl: "pimctl takes a search hit only when its name is identical to the one asked for, else reads the full list: adoption stays exact",
    evidence: ev,
  };
}
