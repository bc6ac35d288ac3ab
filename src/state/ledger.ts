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
import { describeSchemaError, validatorFor } from "../manifest/validate.js";
import { LEDGER_FORMAT, LEDGER_FORMAT_SINCE, ledgerSchema, type Ledger, type LedgerFile } from "./ledger-schema.js";
import { ledgerSchemaV1, migrateV1, type LedgerFileV1 } from "./ledger-v1.js";
import { flattenWritten, groupWritten } from "./ledger-entries.js";
import type { OwnedTable } from "../model/catalogue.js";

export type { Ledger } from "./ledger-schema.js";
export { mergeLedger } from "./ledger-entries.js";

const validateLedger = await validatorFor("ledger", ledgerSchema);
const validateLedgerV1 = await validatorFor("ledger_v1", ledgerSchemaV1);

/** The three sections of entries, each keyed by record. */
export const SECTIONS = ["web_ids", "assets", "brand_attribute_sets"] as const;
export type Section = (typeof SECTIONS)[number];

export function emptyLedger(tenant: string, baseUrl: string): Ledger {
  return { tenant, base_url: baseUrl, web_ids: {}, assets: {}, brand_attribute_sets: {}, owned: {}, names: {}, fingerprints: {}, applied: {}, written: {} };
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
  const v1 = (parsed as { format?: unknown } | null)?.format === 1;
  const validate = v1 ? validateLedgerV1 : validateLedger;
  if (!validate(parsed)) {
    const first = validate.errors?.[0];
    throw new PimctlError(
      "io",
      `the ledger ${where} does not match the ledger schema (schemas/ledger.schema.json) ${first ? `at ${describeSchemaError(first)}` : ""}`.trimEnd(),
      {
        details: ["pimctl state pull writes a ledger in this shape; repair the file, or restore one pulled earlier"],
      },
    );
  }
  const data = parsed as LedgerFile | LedgerFileV1;
  if (data.base_url && normaliseBaseUrl(data.base_url) !== normaliseBaseUrl(baseUrl)) {
    throw new PimctlError(
      "config",
      `the ledger ${where} belongs to ${normaliseBaseUrl(data.base_url)}, not ${baseUrl}; use a separate ledger per tenant (tenant name or ledger_dir)`,
    );
  }
  const common = {
    ...emptyLedger(tenant, baseUrl),
    web_ids: data.web_ids ?? {},
    assets: data.assets ?? {},
    brand_attribute_sets: data.brand_attribute_sets ?? {},
  };
  // Format 1 forgets what it cannot tell (src/state/ledger-v1.ts).
  if (v1) return { ...common, ...migrateV1(data as LedgerFileV1) };
  const v2 = data as LedgerFile;
  return {
    ...common,
    owned: v2.owned ?? {},
    names: v2.names ?? {},
    fingerprints: v2.fingerprints ?? {},
    applied: v2.applied ?? {},
    written: flattenWritten(v2.written ?? {}),
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
  const { tenant, base_url, written, ...rest } = ledger;
  // Write times grouped by time, then by section or table: each key once, one group per apply.
  const byTime = groupWritten(written);
  const file = {
    format: LEDGER_FORMAT,
    min_pimctl_version: LEDGER_FORMAT_SINCE[LEDGER_FORMAT],
    tenant,
    base_url,
    ...(sortDeep(rest) as object),
    ...(Object.keys(byTime).length ? { written: byTime } : {}),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export function cloneLedger(ledger: Ledger): Ledger {
  return structuredClone(ledger);
}

/**
 * Remember the identity pimctl applied to each record, by table and id: its key (a name, a
 * category's path key, ...) and, where given, the fingerprint of what it wrote
 * (src/plan/identity.ts). A key is kept for one id of a named table: an older id under the same
 * key (a record deleted by hand and created again) is forgotten, it would make the key ambiguous.
 */
export function recordNames(ledger: Ledger, names: Partial<Record<string, Record<string, string | { key: string; fingerprint?: string }>>>): void {
  for (const [table, byId] of Object.entries(names)) {
    const t = table as OwnedTable;
    const known = (ledger.names[t] ??= {});
    const fingerprints = (ledger.fingerprints[t] ??= {});
    const applied = Object.fromEntries(Object.entries(byId ?? {}).map(([id, v]) => [id, typeof v === "string" ? { key: v } : v]));
    if (UNIQUE_KEYS.has(t)) {
      const keys = new Set(Object.values(applied).map((v) => v.key));
      for (const [id, key] of Object.entries(known)) {
        if (keys.has(key) && applied[id] === undefined) forgetIdentity(ledger, t, id);
      }
    }
    for (const [id, v] of Object.entries(applied)) {
      known[id] = v.key;
      if (v.fingerprint === undefined) delete fingerprints[id];
      else fingerprints[id] = v.fingerprint;
    }
    if (!Object.keys(fingerprints).length) delete ledger.fingerprints[t];
  }
}

/** Forget what the ledger knows of one record besides ownership: its identity, fingerprint and applied entry. */
function forgetIdentity(ledger: Ledger, table: OwnedTable, id: string): void {
  delete ledger.names[table]?.[id];
  delete ledger.fingerprints[table]?.[id];
  delete ledger.applied[table]?.[id];
}

/** Tables whose identity key is unique among their records (a type value's is within its attribute, an asset's is its owner). */
const UNIQUE_KEYS: ReadonlySet<OwnedTable> = new Set(["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"]);

/** Forget ownership and identity of records that are gone. */
export function forgetOwned(ledger: Ledger, gone: Partial<Record<string, Iterable<number>>>): void {
  for (const [table, ids] of Object.entries(gone)) {
    const t = table as OwnedTable;
    const drop = new Set(ids ?? []);
    if (ledger.owned[t]) ledger.owned[t] = ledger.owned[t]!.filter((id) => !drop.has(id));
    for (const id of drop) forgetIdentity(ledger, t, String(id));
  }
}

/** Remember that pimctl created or adopted these records (prune "owned" may delete them later, while their identity checks out). */
export function recordOwned(ledger: Ledger, owned: Partial<Record<string, Iterable<number>>>): void {
  for (const [table, ids] of Object.entries(owned)) {
    const t = table as OwnedTable;
    const set = new Set([...(ledger.owned[t] ?? []), ...(ids ?? [])]);
    ledger.owned[t] = [...set].sort((a, b) => a - b);
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
