/**
 * A fleet's catalogues read from disk (issue 35): the base's files listed and read once per run,
 * each parsed once per distinct set of variables it uses (a file without `${` once for all), every
 * overlay folder read once; then each tenant's documents composed (compose.ts), validated and
 * built as loadManifests builds one directory's. A reader is shared by the tenants of one run.
 */
import { PimctlError } from "../errors.js";
import { emptyCatalogue } from "../model/catalogue.js";
import type { ParsedYaml } from "./yaml.js";
import { composeDocuments, type ParsedManifest } from "./compose.js";
import { declaresNothing, emptyFileWarning } from "./empty-files.js";
import {
  buildCatalogue,
  listManifests,
  manifestSchemaErrors,
  parseManifestData,
  parseManifestText,
  readManifest,
  shownName,
  type LoadOptions,
  type LoadResult,
  type ManifestDocument,
} from "./index.js";

type Listing = Awaited<ReturnType<typeof listManifests>>;
type Read = { text: string } | { error: PimctlError };
interface Parsed extends ManifestDocument {
  file: string;
}

/** Files, texts and parses of one run, kept for every tenant that needs them again. */
export class ManifestReader {
  private readonly listings = new Map<string, Promise<Listing>>();
  private readonly texts = new Map<string, Promise<Read>>();
  private readonly parses = new Map<string, Promise<Parsed>>();
  /** How many times a file was parsed (the fleet test counts them). */
  parsed = 0;

  constructor(private readonly cwd: string | undefined) {}

  list(dir: string, exclude: readonly string[]): Promise<Listing> {
    return memo(this.listings, dir, () => listManifests(dir, { ...(this.cwd ? { cwd: this.cwd } : {}), exclude }));
  }

  /** A file parsed with the tenant's variables; `schema`: checked against the manifest schema too (base files, not overlays). */
  async parse(file: string, opts: LoadOptions, schema: boolean): Promise<Parsed> {
    const rel = shownName(file, this.cwd);
    const read = await memo(this.texts, file, () => readManifest(file, rel));
    if ("error" in read) return { file: rel, errors: [read.error] };
    const variables = read.text.includes("${") ? JSON.stringify(opts.variables === undefined ? null : Object.entries(opts.variables).sort()) : "";
    return memo(this.parses, `${schema}\0${file}\0${variables}`, async () => {
      this.parsed++;
      return { file: rel, ...(schema ? parseManifestText(read.text, rel, opts) : parseManifestData(read.text, rel, opts)) };
    });
  }
}

function memo<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let p = cache.get(key);
  if (!p) cache.set(key, (p = make()));
  return p;
}

/** The errors of a shared parse, copied: the build adds details to a syntax error, and each tenant's build is its own. */
function copied(errors: readonly PimctlError[]): PimctlError[] {
  return errors.map((e) => new PimctlError(e.code, e.message, { ...(e.location ? { location: e.location } : {}), details: [...e.details] }));
}

const asManifest = (p: Parsed): ParsedManifest | undefined => (p.data && p.parsed ? { file: p.file, data: p.data, parsed: p.parsed } : undefined);

/**
 * One tenant's catalogue: the base directory with its overlay folder (none: the base alone, as
 * loadManifests reads it). `exclude`: overlay folders inside the base directory.
 */
export async function loadComposed(baseDir: string, overlayDir: string | undefined, opts: LoadOptions, reader: ManifestReader): Promise<LoadResult> {
  const listing = await reader.list(baseDir, opts.exclude ?? []);
  if (listing.unreadable) return { catalogue: emptyCatalogue(), errors: copied(listing.errors), warnings: [], files: [], empty: [] };
  const warnings: PimctlError[] = listing.files.length ? [] : [new PimctlError("io", `no manifest files (*.yaml, *.yml) in ${baseDir}`)];
  const base = await Promise.all(listing.files.map((f) => reader.parse(f, opts, true)));
  const overlayListing = overlayDir ? await reader.list(overlayDir, []) : undefined;
  const overlay = await Promise.all((overlayListing?.files ?? []).map((f) => reader.parse(f, opts, false)));
  const empty = [...base, ...overlay].filter((p) => p.data && !p.errors.length && declaresNothing(p.data)).map((p) => p.file);
  warnings.push(...empty.map(emptyFileWarning));
  const composed = composeDocuments(
    base.flatMap((p) => asManifest(p) ?? []),
    { files: overlay.flatMap((p) => asManifest(p) ?? []) },
  );
  const byFile = new Map(composed.documents.map((d) => [d.file, d]));
  const documents: ManifestDocument[] = base.map((p) => {
    const doc = byFile.get(p.file);
    if (!doc || doc.parsed === p.parsed) return { ...p, errors: copied(p.errors) };
    return { data: doc.data, parsed: doc.parsed, errors: unique([...copied(p.errors), ...manifestSchemaErrors(doc.parsed, doc.data)]) };
  });
  const baseFiles = new Set(base.map((p) => p.file));
  for (const doc of composed.documents)
    if (!baseFiles.has(doc.file)) documents.push({ data: doc.data, parsed: doc.parsed, errors: manifestSchemaErrors(doc.parsed, doc.data) });
  const places = new Map<string, ParsedYaml>(composed.documents.map((d) => [d.file, d.parsed]));
  const built = await buildCatalogue(documents, opts, places);
  const overlayErrors = [...copied(overlayListing?.errors ?? []), ...overlay.flatMap((p) => copied(p.errors)), ...composed.errors];
  return {
    catalogue: built.catalogue,
    errors: [...copied(listing.errors), ...overlayErrors, ...built.errors],
    warnings: [...warnings, ...composed.warnings, ...built.warnings],
    files: [...listing.files, ...(overlayListing?.files ?? [])],
    empty,
    places,
  };
}

function unique(errors: PimctlError[]): PimctlError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.format()) && !!seen.add(e.format()));
}
