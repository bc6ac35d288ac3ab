/**
 * Wire forms, from the answers doctor already has: booleans, ids and dates. Every field the
 * client's table types (src/api/wire.ts FIELD_TYPES) is sampled wherever it occurs (records
 * nest: type values in attributes); a reading is known when every sample fits it and no other.
 * What pimctl does with a form no reading covers is asked of pimctl's own coercers, so the
 * report says what pimctl will actually do.
 */
import { coerceBool, coerceId, dateInstant, FIELD_TYPES } from "../../api/wire.js";
import type { RawAnswer } from "../../api/probes.js";
import type { BoolFormat, DateFormat, IdFormat } from "../../emulator/wire-format.js";
import { answersSeen, evidence, quote, type DoctorContext } from "../context.js";
import type { Evidence, Verdict } from "../types.js";

interface Sample {
  field: string;
  value: unknown;
  answer: RawAnswer;
}

/**
 * The dates the service writes from its own clock. Exclusion dates are left out: a tenant may keep
 * them as a client wrote them (the emulator's default reading does), so their form says nothing.
 */
const SERVICE_DATES = new Set(["created_at", "updated_at"]);

/** Every value of a field of this type in the answers (links and meta are paging, not records). */
function samples(ctx: DoctorContext, type: "bool" | "id" | "date"): Sample[] {
  const out: Sample[] = [];
  const walk = (v: unknown, answer: RawAnswer): void => {
    if (Array.isArray(v)) for (const x of v) walk(x, answer);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (k === "links" || k === "meta") continue;
        // An id list (attribute_sets) has its own detector; nulls say nothing of a form.
        if (FIELD_TYPES[k] === type && (type !== "date" || SERVICE_DATES.has(k))) {
          if (x !== null && typeof x !== "object") out.push({ field: k, value: x, answer });
        } else walk(x, answer);
      }
  };
  for (const a of answersSeen(ctx)) walk(a.json, a);
  return out;
}

/**
 * The readings every sample fits. `formOf` names a sample's form; `expected` the form a reading
 * sends for a field. One reading left: known; several: undetermined; none: unknown.
 */
function classify<R extends string>(
  all: Sample[],
  readings: readonly R[],
  formOf: (v: unknown) => string,
  expected: (reading: R, field: string) => string,
): { fits: R[]; misfit?: Sample; shown: Evidence[] } {
  // One example per field and form: the evidence stays short on a tenant of thousands of records.
  const seen = new Map<string, Sample>();
  for (const s of all) {
    const key = `${s.field}:${formOf(s.value)}`;
    if (!seen.has(key)) seen.set(key, s);
  }
  const distinct = [...seen.values()].sort((a, b) => a.field.localeCompare(b.field));
  const fits = readings.filter((r) => distinct.every((s) => formOf(s.value) === expected(r, s.field)));
  const misfit = fits.length ? undefined : distinct.find((s) => !readings.some((r) => formOf(s.value) === expected(r, s.field)));
  const shown = distinct.slice(0, 6).map((s) => evidence(s.answer, `${s.field}: ${quote(s.value)}`));
  return { fits, ...(misfit ? { misfit } : {}), shown };
}

function verdictOf<R extends string>(
  c: ReturnType<typeof classify<R>>,
  what: string,
  unknown: (s: Sample | undefined) => { seen: string; pimctl: string },
): Verdict<R> {
  if (c.fits.length === 1) return { outcome: "known", reading: c.fits[0]!, evidence: c.shown };
  if (c.fits.length > 1) {
    const why = c.shown.length ? `the ${what} seen fit ${c.fits.join(", ")} alike` : `no answer held ${what}`;
    return { outcome: "undetermined", why, candidates: c.fits, evidence: c.shown };
  }
  return {
    outcome: "unknown",
    ...unknown(c.misfit),
    evidence: c.misfit ? [evidence(c.misfit.answer, `${c.misfit.field}: ${quote(c.misfit.value)}`), ...c.shown] : c.shown,
  };
}

// ----------------------------------------------------------------- booleans

const BOOL_READINGS: readonly BoolFormat[] = ["document", "int", "string", "bool"];
/** The document says "returned as 1 or 0" for these. */
const RETURNED_01 = new Set(["thumbnail", "is_tree", "is_product_attribute", "publishable", "display_on_navigation"]);
/** The document does not show their form; the "document" reading sends them as 1/0, as a PHP service writes tinyints. */
const FORM_NOT_SHOWN = new Set(["sync", "in_navigation", "is_smart"]);

const boolForm = (v: unknown) => (v === true || v === false ? "bool" : v === 1 || v === 0 ? "int" : v === "1" || v === "0" ? "string" : "other");
function boolExpected(r: BoolFormat, field: string): string {
  if (r === "int" || r === "string") return r;
  if (r === "bool") return RETURNED_01.has(field) ? "int" : "bool";
  return RETURNED_01.has(field) || FORM_NOT_SHOWN.has(field) ? "int" : "bool";
}

export async function detectBoolFormat(ctx: DoctorContext): Promise<Verdict<BoolFormat>> {
  const c = classify(samples(ctx, "bool"), BOOL_READINGS, boolForm, boolExpected);
  return verdictOf(c, "booleans", (s) => {
    const readable = s && typeof coerceBool(s.value) === "boolean";
    return {
      seen: s ? `${s.field} sent as ${quote(s.value)}` : "booleans in a mix of forms no reading sends",
      pimctl: readable
        ? "pimctl reads each of these forms as a boolean (src/api/wire.ts), so plans compare them right; no emulator reading sends this mix, so it is untested"
        : `pimctl cannot read ${s ? quote(s.value) : "this form"} as a boolean: the value is compared as it came, so a plan shows the field changed on ` +
          "every run; do not apply until pimctl knows the form (send the bundle)",
    };
  });
}

// ---------------------------------------------------------------------- ids

const ID_READINGS: readonly IdFormat[] = ["number", "string"];
const idForm = (v: unknown) => (typeof v === "number" && Number.isInteger(v) ? "number" : typeof v === "string" && /^\d+$/.test(v) ? "string" : "other");

export async function detectIdFormat(ctx: DoctorContext): Promise<Verdict<IdFormat>> {
  const c = classify(samples(ctx, "id"), ID_READINGS, idForm, (r) => r);
  return verdictOf(c, "ids", (s) => ({
    seen: s ? `${s.field} sent as ${quote(s.value)}` : "ids as numbers and as strings in one tenant",
    pimctl:
      s && typeof coerceId(s.value) !== "number"
        ? "pimctl names records by integer ids (plans, the ledger, every path it writes): ids that are not integers are not supported; do not apply"
        : "pimctl reads numbers and numeric strings alike as integer ids (src/api/wire.ts); no emulator reading mixes them, so it is untested",
  }));
}

// -------------------------------------------------------------------- dates

const DATE_READINGS: readonly DateFormat[] = ["document", "iso-z", "iso-offset", "sql"];
function dateForm(v: unknown): string {
  if (typeof v !== "string") return "other";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(v)) return "document";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/.test(v)) return "iso-z";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/.test(v)) return "iso-offset";
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v)) return "sql";
  return "other";
}

export async function detectDateFormat(ctx: DoctorContext): Promise<Verdict<DateFormat>> {
  const c = classify(samples(ctx, "date"), DATE_READINGS, dateForm, (r) => r);
  return verdictOf(c, "dates", (s) => {
    const readable = s !== undefined && dateInstant(s.value) !== undefined;
    return {
      seen: s ? `${s.field} sent as ${quote(s.value)}` : "dates in more than one form",
      pimctl: readable
        ? "pimctl reads this form as an instant (src/api/wire.ts dateInstant), so plans and the changelog refresh work; no emulator reading " +
          "sends it, so it is untested"
        : `pimctl cannot read ${s ? quote(s.value) : "these dates"} as an instant: --refresh=changelog refuses the feed's entries and reads in full ` +
          "(their updated_at is unreadable), and exclusion dates compare as text (a plan may show them changed on every run)",
    };
  });
}
