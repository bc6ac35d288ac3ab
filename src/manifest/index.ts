/**
 * Load a directory of manifests into one validated, normalised Catalogue.
 * parse (YAML with positions, ${variables}) -> read-only fields -> schema ->
 * normalise (merge files, flatten category trees, sort) -> rules (duplicates,
 * values on types without values, previous names, versions). Never throws for
 * bad input: every error of the run comes back together, each with file:line:col.
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { KINDS, emptyCatalogue, type Catalogue } from "../model/catalogue.js";
import { PimctlError } from "../errors.js";
import { READ_ONLY_API_FIELDS, manifestSchema } from "../model/schema.js";
import { referenceProblems, type ExternalRecords } from "./references.js";
import { atMembers } from "./reference-places.js";
import { schemaErrors, validatorFor } from "./validate.js";
import { parseYaml, pointer, type ParsedYaml } from "./yaml.js";
import { manifestFiles } from "./files.js";
import { decodeManifest } from "./encoding.js";
import { CatalogueBuilder } from "./catalogue-builder.js";
import { declaresNothing, emptyFileWarning } from "./empty-files.js";

export interface LoadOptions {
  /** Values for ${name}; undefined means no tenant was chosen. */
  variables?: Record<string, string>;
  /** Version names that exist (from config); unknown ones are errors. Undefined: checked at plan time. */
  knownVersions?: string[];
  /**
   * Version names the config lists (versions:). The tenant's channels may publish others, so only a
   * name close to a listed one and not listed itself (a typo: "Frnech") is an error offline.
   */
  listedVersions?: string[];
  /** File names in errors are relative to this directory (default: the process's). */
  cwd?: string;
  /** Tenant-owned records manifests may refer to without declaring (config external:). */
  external?: ExternalRecords;
  /** Absolute folders under the manifest directory that are not part of it (overlay folders kept inside it). */
  exclude?: readonly string[];
}

export interface LoadResult {
  catalogue: Catalogue;
  errors: PimctlError[];
  warnings: PimctlError[];
  files: string[];
  /** The files that declare nothing (empty-files.ts), as errors name them: each is a warning too. */
  empty: string[];
  /** A tenant's composed documents by file name (overlay-load.ts): where each value is written, base or overlay. */
  places?: ReadonlyMap<string, ParsedYaml>;
}

const validateManifest = await validatorFor("manifest", manifestSchema);

const READ_ONLY_KEYS = Object.fromEntries(Object.entries(READ_ONLY_API_FIELDS).map(([kind, fields]) => [kind, Object.entries(fields)]));

function checkReadOnly(data: unknown, parsed: ParsedYaml, errors: PimctlError[]): void {
  if (!data || typeof data !== "object" || Array.isArray(data)) return;
  // One path, pushed and popped as the walk goes: it is copied only for an error (every value is visited).
  const parts: Array<string | number> = [];
  const check = (entry: unknown, kind: string): void => {
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) return;
    const e = entry as Record<string, unknown>;
    for (const [key, hint] of READ_ONLY_KEYS[kind] ?? []) {
      if (!(key in e)) continue;
      errors.push(new PimctlError("read_only_field", `"${key}" is read-only in API v1: ${hint}`, { location: parsed.at(`${pointer([...parts, key])}#key`) }));
      delete e[key];
    }
    if (kind === "attributes") checkList(e.values, "values", "values");
    if (kind === "brands" || kind === "categories") checkList(e.assets, "assets", "assets");
    if (kind === "categories") checkList(e.children, "children", "categories");
  };
  const checkList = (list: unknown, field: string, kind: string): void => {
    if (!Array.isArray(list)) return;
    parts.push(field);
    for (let i = 0; i < list.length; i++) {
      parts.push(i);
      check(list[i], kind);
      parts.pop();
    }
    parts.pop();
  };
  for (const kind of KINDS) checkList((data as Record<string, unknown>)[kind], kind, kind);
}

/** Parse one file's text into its mapping of kinds, read-only fields refused; not yet checked against the schema. */
export function parseManifestData(
  text: string,
  file: string,
  opts: LoadOptions = {},
): { data?: Record<string, unknown>; parsed: ParsedYaml; errors: PimctlError[] } {
  const parsed = parseYaml(text, file, opts.variables);
  const errors = [...parsed.errors];
  if (errors.length) return { parsed, errors };
  const data = parsed.data ?? {};
  if (typeof data !== "object" || Array.isArray(data) || data === null) {
    errors.push(
      new PimctlError("schema", `a manifest file holds a mapping of kinds (${KINDS.join(", ")}), not ${Array.isArray(data) ? "a list" : typeof data}`, {
        location: parsed.at(""),
      }),
    );
    return { parsed, errors };
  }
  checkReadOnly(data, parsed, errors);
  return { data: data as Record<string, unknown>, parsed, errors };
}

/** The schema's errors for one document (a file as parsed, or a tenant's composed document: overlay.ts). */
export function manifestSchemaErrors(parsed: ParsedYaml, data: Record<string, unknown>): PimctlError[] {
  return schemaErrors(validateManifest, parsed, data);
}

/** Parse and validate one file's text (exported for tests and the fuzz test). */
export function parseManifestText(
  text: string,
  file: string,
  opts: LoadOptions = {},
): { data?: Record<string, unknown>; parsed: ParsedYaml; errors: PimctlError[] } {
  const read = parseManifestData(text, file, opts);
  if (read.data) read.errors.push(...manifestSchemaErrors(read.parsed, read.data));
  return read;
}

/** A file's text, or why it cannot be read (not UTF-8, unreadable) as an error naming it. */
export async function readManifest(file: string, rel: string): Promise<{ text: string } | { error: PimctlError }> {
  try {
    return decodeManifest(await readFile(file), rel);
  } catch (e) {
    return { error: new PimctlError("io", `cannot read ${rel}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`) };
  }
}

/** One parsed document the builder takes: a file (or a tenant's composed document), valid or not. */
export interface ManifestDocument {
  data?: Record<string, unknown>;
  /** Absent for a file that could not be read (its error is in `errors`). */
  parsed?: ParsedYaml;
  errors: PimctlError[];
}

/** The manifest files of `dir` (files.ts), or why it cannot be read; `exclude`: folders left out (overlays inside the base). */
export async function listManifests(
  dir: string,
  opts: Pick<LoadOptions, "cwd" | "exclude"> = {},
): Promise<{ files: string[]; errors: PimctlError[]; unreadable?: true }> {
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error("not a directory");
    return await manifestFiles(dir, opts.cwd, opts.exclude);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return { files: [], errors: [new PimctlError("io", `cannot read the manifest directory ${dir}: ${why}`)], unreadable: true };
  }
}

export async function loadManifests(dir: string, opts: LoadOptions = {}): Promise<LoadResult> {
  const errors: PimctlError[] = [];
  const warnings: PimctlError[] = [];
  const empty: string[] = [];
  const listing = await listManifests(dir, opts);
  const files = listing.files;
  errors.push(...listing.errors);
  if (listing.unreadable) return { catalogue: emptyCatalogue(), errors, warnings, files, empty };
  if (!files.length) warnings.push(new PimctlError("io", `no manifest files (*.yaml, *.yml) in ${dir}`));
  const documents: ManifestDocument[] = [];
  for (const file of files) {
    const rel = shownName(file, opts.cwd);
    const read = await readManifest(file, rel);
    if ("error" in read) {
      documents.push({ errors: [read.error] });
      continue;
    }
    const document = parseManifestText(read.text, rel, opts);
    if (document.data && !document.errors.length && declaresNothing(document.data)) {
      empty.push(rel);
      warnings.push(emptyFileWarning(rel));
    }
    documents.push(document);
  }
  const built = await buildCatalogue(documents, opts);
  return { catalogue: built.catalogue, errors: [...errors, ...built.errors], warnings: [...warnings, ...built.warnings], files, empty };
}

/**
 * The catalogue of parsed documents and the rules that span them (duplicates, references).
 * `places`: where a reference error's member is looked up by its entry's file name (composed
 * documents, held in memory); without it the file is parsed again (reference-places.ts).
 */
export async function buildCatalogue(
  documents: readonly ManifestDocument[],
  opts: LoadOptions,
  places?: ReadonlyMap<string, ParsedYaml>,
): Promise<{ catalogue: Catalogue; errors: PimctlError[]; warnings: PimctlError[] }> {
  const errors: PimctlError[] = [];
  const builder = new CatalogueBuilder(opts);
  for (const { data, parsed, errors: fileErrors } of documents) {
    errors.push(...fileErrors);
    if (data && parsed && !fileErrors.length) builder.add(data, parsed);
    // A file with schema errors still declares its names: duplicates and references are reported in the same run.
    else if (data && parsed) builder.register(data, parsed);
  }
  const catalogue = builder.build();
  errors.push(...builder.errors);
  const external: ExternalRecords = { ...opts.external };
  for (const kind of ["display_groups", "attributes", "attribute_sets"] as const) {
    const partial = builder.registered(kind);
    if (partial.length && external[kind] !== "*") external[kind] = [...(external[kind] ?? []), ...partial];
  }
  // A file that could not be parsed declares names no one knows: a reference to them is not an error
  // anyone can act on until the file reads again. Say how many checks wait for it instead.
  const references = referenceProblems(catalogue, external);
  const syntax = errors.find((e) => e.code === "yaml_syntax");
  if (syntax && references.length)
    syntax.details.push(
      `${references.length} more check${references.length === 1 ? "" : "s"} (references to what the files declare) skipped until the syntax error is fixed`,
    );
  else if (references.length) errors.push(...(await atMembers(references, opts, places)));
  return { catalogue, errors, warnings: builder.warnings };
}

/** A file's name as errors show it: relative to `cwd` (the process's by default). */
export function shownName(file: string, cwd?: string): string {
  return path.relative(cwd ?? process.cwd(), file) || file;
}
