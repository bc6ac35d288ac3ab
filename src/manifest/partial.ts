/**
 * Loading some entries of a manifest directory: the files are read and split
 * by line (entry-scan.ts), and only the entries asked for are parsed and
 * validated, with the parser and schema of a full load and at their real
 * file:line:col (the other lines of the file are left blank in the text the
 * parser sees). Files that cannot be split safely are parsed whole. What the
 * catalogue says of the whole directory (its managed kinds and language
 * versions) comes from the scan of the entries not parsed.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { KINDS, type Catalogue, type Kind } from "../model/catalogue.js";
import { PimctlError } from "../errors.js";
import { CatalogueBuilder } from "./catalogue-builder.js";
import { decodeManifest } from "./encoding.js";
import { manifestFiles } from "./files.js";
import { parseManifestText, type LoadOptions } from "./index.js";
import { scanEntries, type ScannedEntry, type ScannedFile, type Segment } from "./entry-scan.js";
import type { ParsedYaml } from "./yaml.js";
import { declaresNothing } from "./empty-files.js";

interface SplitFile extends ScannedFile {
  rel: string;
}

export interface PartialLoad {
  /** The entries parsed so far, merged and checked (but for references). */
  catalogue: Catalogue;
  errors: PimctlError[];
  /** The files that declare nothing (empty-files.ts), as a full load finds them. */
  empty: string[];
  /** Entries parsed, of all the directory's entries. */
  loaded: number;
  total: number;
}

/** A manifest directory, scanned once; entries are parsed as they are asked for. */
export class ManifestEntries {
  private readonly pieces: Array<{ data: Record<string, unknown>; parsed: ParsedYaml }> = [];
  private readonly errors: PimctlError[] = [];
  private readonly loadedEntries = new Set<ScannedEntry>();
  private readonly empty: string[] = [];
  /** Kinds and versions of the files parsed whole. */
  private wholeEntries = 0;

  private constructor(
    private readonly opts: LoadOptions,
    private readonly split: SplitFile[],
  ) {}

  /**
   * Reads and scans every manifest file; files that cannot be split are parsed whole now.
   * Undefined when the directory cannot be listed: a full load says why, as it always has.
   */
  static async open(dir: string, opts: LoadOptions): Promise<ManifestEntries | undefined> {
    const listing = await manifestFiles(dir, opts.cwd).catch(() => undefined);
    if (!listing) return undefined;
    const texts = await Promise.all(
      listing.files.map(async (file) => {
        const rel = path.relative(opts.cwd ?? process.cwd(), file) || file;
        try {
          return { rel, ...decodeManifest(await readFile(file), rel) };
        } catch (e) {
          return { rel, error: new PimctlError("io", `cannot read ${rel}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`) };
        }
      }),
    );
    const split: SplitFile[] = [];
    const empty: string[] = [];
    const whole: Array<{ rel: string; text: string }> = [];
    const errors = [...listing.errors];
    for (const t of texts) {
      if ("error" in t) errors.push(t.error);
      else {
        const scanned = scanEntries(t.text);
        if (scanned && !scanned.kinds.size) empty.push(t.rel);
        if (scanned) split.push({ ...scanned, rel: t.rel });
        else whole.push({ rel: t.rel, text: t.text });
      }
    }
    const entries = new ManifestEntries(opts, split);
    entries.errors.push(...errors);
    entries.empty.push(...empty);
    for (const w of whole) {
      const data = entries.parse(w.text, w.rel);
      if (data && declaresNothing(data)) entries.empty.push(w.rel);
      for (const kind of KINDS) if (Array.isArray(data?.[kind])) entries.wholeEntries += (data[kind] as unknown[]).length;
    }
    return entries;
  }

  /** The entries of the split files not parsed yet. */
  *unloaded(): Generator<ScannedEntry> {
    for (const f of this.split) for (const e of f.entries) if (!this.loadedEntries.has(e)) yield e;
  }

  /** Parses these entries (of the split files) as one text per file. */
  load(chosen: ReadonlySet<ScannedEntry>): void {
    for (const f of this.split) {
      const mine = f.entries.filter((e) => chosen.has(e) && !this.loadedEntries.has(e));
      if (!mine.length) continue;
      const segments = new Set<Segment>();
      for (const e of mine) {
        this.loadedEntries.add(e);
        segments.add(e).add(f.kinds.get(e.kind)!);
      }
      // The other lines are left blank: the parser reports the entries' real lines and columns.
      let text = "";
      let line = 0;
      for (const seg of [...segments].sort((a, b) => a.start - b.start)) {
        text += "\n".repeat(seg.line - line) + f.text.slice(seg.start, seg.end);
        line = seg.endLine;
      }
      this.parse(text, f.rel);
    }
  }

  private parse(text: string, rel: string): Record<string, unknown> | undefined {
    const { data, parsed, errors } = parseManifestText(text, rel, this.opts);
    this.errors.push(...errors);
    if (data && !errors.length) this.pieces.push({ data, parsed });
    return data;
  }

  /** What the parsed entries make, with the managed kinds and versions of the whole directory (references are the caller's to check). */
  result(): PartialLoad {
    const builder = new CatalogueBuilder(this.opts);
    for (const p of this.pieces) builder.add(p.data, p.parsed);
    const catalogue = builder.build();
    const managed = new Set<Kind>(catalogue.managed);
    const versions = new Set(catalogue.versions);
    let total = this.wholeEntries;
    for (const f of this.split) {
      for (const k of f.kinds.keys()) managed.add(k);
      total += f.entries.length;
    }
    for (const e of this.unloaded()) for (const v of e.versions ?? []) versions.add(v);
    catalogue.managed = KINDS.filter((k) => managed.has(k));
    catalogue.versions = [...versions].sort();
    return {
      catalogue,
      errors: [...this.errors, ...builder.errors],
      empty: [...this.empty].sort(),
      loaded: this.loadedEntries.size + this.wholeEntries,
      total,
    };
  }
}
