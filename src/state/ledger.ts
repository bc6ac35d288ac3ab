/**
 * The ledger: what pimctl wrote that API v1 cannot read back (channel web ids,
 * the image_url each asset came from, brand attribute-set assignments), per
 * tenant, keyed by remote record id so renames keep their entries.
 *
 * This file is the ledger as data: its shape, its text form (sorted keys,
 * stable formatting, so it diffs well), and a three-way merge used when a
 * compare-and-swap write loses a race. Where the text is kept, and the lock,
 * belong to a state backend (src/state/backends/). It holds no secrets: ids,
 * channel names, web ids, image URLs and attribute-set names only.
 */
import { PimctlError } from "../errors.js";
import { normaliseBaseUrl } from "../api/base-url.js";
import { packageVersion } from "../package.js";
import { describeSchemaError } from "../plan/file.js";
import { validatorFor } from "../manifest/validate.js";
import { LEDGER_FORMAT, LEDGER_FORMAT_SINCE, ledgerSchema, type LedgerFile } from "./ledger-schema.js";

/**
 * The ledger in memory: the file's sections (src/state/ledger-schema.ts), each
 * present. web_ids: "brand:<id>" | "category:<id>" -> channel -> web id;
 * assets: the same keys -> asset id -> the image_url it was written from;
 * brand_attribute_sets: brand id -> set names; owned: prune kind -> ids of
 * records pimctl created or adopted (what prune "owned" may delete); names:
 * prune kind -> record id -> the name pimctl last applied, for categories the
 * path key (a record renamed by hand in the PIM is found by its id and renamed
 * back, never deleted and created again; a targeted plan reads records by these
 * ids: src/state/by-id.ts).
 */
export type Ledger = Required<Omit<LedgerFile, "format" | "min_pimctl_version">>;

const validateLedger = await validatorFor("ledger", ledgerSchema);

/** The three sections of entries, each keyed by record. */
export const SECTIONS = ["web_ids", "assets", "brand_attribute_sets"] as const;
export type Section = (typeof SECTIONS)[number];

export function emptyLedger(tenant: string, baseUrl: string): Ledger {
  return { tenant, base_url: baseUrl, web_ids: {}, assets: {}, brand_attribute_sets: {}, owned: {}, names: {}, applied: {} };
}

/** Parse a ledger's text; `where` names it in errors (a file, a Git ref). */
export function parseLedger(text: string, where: string, tenant: string, baseUrl: string): Ledger {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PimctlError(
      "io",
      `the ledger ${where} is not valid JSON; restore it (pimctl state push FILE) or delete it (write-only values will then be written once more)`,
    );
  }
  // The format first: a newer ledger may hold sections this schema does not know, and must not be rewritten without them.
  refuseNewerFormat(parsed, where);
  if (!validateLedger(parsed)) {
    const first = validateLedger.errors?.[0];
    throw new PimctlError(
      "io",
      `the ledger ${where} does not match the ledger schema (schemas/ledger.schema.json) ${first ? `at ${describeSchemaError(first)}` : ""}`.trimEnd(),
      {
        details: ["pimctl state pull writes a ledger in this shape; repair the file, or restore one pulled earlier"],
      },
    );
  }
  const data = parsed as LedgerFile;
  if (data.base_url && normaliseBaseUrl(data.base_url) !== normaliseBaseUrl(baseUrl)) {
    throw new PimctlError(
      "config",
      `the ledger ${where} belongs to ${normaliseBaseUrl(data.base_url)}, not ${baseUrl}; use a separate ledger per tenant (tenant name or ledger_dir)`,
    );
  }
  return {
    ...emptyLedger(tenant, baseUrl),
    web_ids: data.web_ids ?? {},
    assets: data.assets ?? {},
    brand_attribute_sets: data.brand_attribute_sets ?? {},
    owned: data.owned ?? {},
    names: data.names ?? {},
    applied: data.applied ?? {},
  };
}

function refuseNewerFormat(data: unknown, where: string): void {
  const format = (data as { format?: unknown } | null)?.format;
  // Not an integer (1.5): the schema refuses it as malformed, not as newer.
  if (typeof format !== "number" || !Number.isInteger(format) || format <= LEDGER_FORMAT) return;
  const since = (data as { min_pimctl_version?: unknown }).min_pimctl_version;
  // Only a version newer than this one can be the one it needs; anything else says nothing.
  const newer = typeof since === "string" && /^\d+\.\d+\.\d+/.test(since) && compareVersions(since, packageVersion()) > 0;
  const needs = newer ? `pimctl ${since} or later` : "a newer pimctl";
  throw new PimctlError(
    "io",
    `the ledger ${where} is in format ${format}, which needs ${needs}; this pimctl (${packageVersion()}) reads ledger format ${LEDGER_FORMAT}`,
    {
      details: [`upgrade pimctl (npm install pimctl@latest) on every machine that applies to this tenant; the ledger was left as it is`],
    },
  );
}

/** Numeric comparison of "major.minor.patch" (anything after the patch is ignored). */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[.+-]/)
      .slice(0, 3)
      .map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

export function serialiseLedger(ledger: Ledger): string {
  const { tenant, base_url, ...rest } = ledger;
  const file = { format: LEDGER_FORMAT, min_pimctl_version: LEDGER_FORMAT_SINCE[LEDGER_FORMAT], tenant, base_url, ...(sortDeep(rest) as object) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export function cloneLedger(ledger: Ledger): Ledger {
  return structuredClone(ledger);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(sortDeep(a)) === JSON.stringify(sortDeep(b));

/**
 * Three-way merge per record: what this run changed since it read `base` wins,
 * every other record is taken from `theirs` (the newer stored ledger). So a
 * concurrent writer's entries survive, and so do ours: nothing is lost.
 */
export function mergeLedger(base: Ledger, mine: Ledger, theirs: Ledger): Ledger {
  const out = cloneLedger(theirs);
  for (const section of SECTIONS) {
    const b = base[section] as Record<string, unknown>;
    const m = mine[section] as Record<string, unknown>;
    const o = out[section] as Record<string, unknown>;
    for (const key of new Set([...Object.keys(b), ...Object.keys(m)])) {
      if (same(b[key], m[key])) continue;
      if (m[key] === undefined) delete o[key];
      else o[key] = structuredClone(m[key]);
    }
  }
  // Ownership: ids this run added or dropped since it read `base` win; the rest is theirs.
  for (const kind of new Set([...Object.keys(base.owned), ...Object.keys(mine.owned), ...Object.keys(out.owned)])) {
    const was = new Set(base.owned[kind] ?? []);
    const now = new Set(mine.owned[kind] ?? []);
    const ids = new Set(out.owned[kind] ?? []);
    for (const id of now) if (!was.has(id)) ids.add(id);
    for (const id of was) if (!now.has(id)) ids.delete(id);
    out.owned[kind] = [...ids].sort((a, b) => a - b);
  }
  // Names and what was applied: per record, what this run changed since it read `base` wins; the rest is theirs.
  for (const section of ["names", "applied"] as const) mergeByRecord(base[section], mine[section], out[section]);
  return out;
}

type ByKindAndId = Partial<Record<string, Record<string, string>>>;

function mergeByRecord(base: ByKindAndId, mine: ByKindAndId, out: ByKindAndId): void {
  for (const kind of new Set([...Object.keys(base), ...Object.keys(mine)])) {
    const b = base[kind] ?? {};
    const m = mine[kind] ?? {};
    const o = (out[kind] ??= {});
    for (const id of new Set([...Object.keys(b), ...Object.keys(m)])) {
      if (b[id] === m[id]) continue;
      if (m[id] === undefined) delete o[id];
      else o[id] = m[id]!;
    }
  }
}

/**
 * Remember the names pimctl applied, by record id (see Ledger.names). A name is
 * unique within its kind, so an older id under the same name (a record deleted
 * by hand and created again) is forgotten: it would make the name ambiguous.
 */
export function recordNames(ledger: Ledger, names: Partial<Record<string, Record<string, string>>>): void {
  for (const [kind, byId] of Object.entries(names)) {
    const known = (ledger.names[kind] ??= {});
    const applied = new Set(Object.values(byId ?? {}));
    for (const [id, name] of Object.entries(known)) if (applied.has(name) && byId?.[id] === undefined) delete known[id];
    Object.assign(known, byId);
  }
}

/** Forget ownership of records that are gone. */
export function forgetOwned(ledger: Ledger, gone: Partial<Record<string, Iterable<number>>>): void {
  for (const [kind, ids] of Object.entries(gone)) {
    const drop = new Set(ids ?? []);
    if (ledger.owned[kind]) ledger.owned[kind] = ledger.owned[kind]!.filter((id) => !drop.has(id));
    for (const byId of [ledger.names[kind], ledger.applied[kind]]) if (byId) for (const id of drop) delete byId[String(id)];
  }
}

/** Remember that pimctl created or adopted these records (prune "owned" may delete them later). */
export function recordOwned(ledger: Ledger, owned: Partial<Record<string, Iterable<number>>>): void {
  for (const [kind, ids] of Object.entries(owned)) {
    const set = new Set([...(ledger.owned[kind] ?? []), ...(ids ?? [])]);
    ledger.owned[kind] = [...set].sort((a, b) => a - b);
  }
}

/** One line per entry, "<section> <record key>: value", for `pimctl state show` and tests. */
export interface LedgerEntry {
  section: Section;
  /** The ledger's key: "brand:12", "category:7"; for brand_attribute_sets the brand id. */
  key: string;
  kind: "brand" | "category";
  id: number;
  value: unknown;
}

export function ledgerEntries(ledger: Ledger): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  for (const section of SECTIONS) {
    for (const [key, value] of Object.entries(ledger[section]).sort(([a], [b]) => a.localeCompare(b))) {
      const [kind, id] = section === "brand_attribute_sets" ? ["brand", key] : key.split(":");
      out.push({ section, key, kind: kind === "category" ? "category" : "brand", id: Number(id), value });
    }
  }
  return out;
}

/** Forget every entry of one record (so its write-only values are written again); returns how many went. */
export function forgetRecord(ledger: Ledger, kind: "brand" | "category", id: number): number {
  let n = 0;
  for (const section of SECTIONS) {
    const key = section === "brand_attribute_sets" ? (kind === "brand" ? String(id) : undefined) : `${kind}:${id}`;
    if (key !== undefined && key in ledger[section]) {
      delete (ledger[section] as Record<string, unknown>)[key];
      n++;
    }
  }
  return n;
}
