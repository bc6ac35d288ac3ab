/**
 * `export --merge --tenant X` into the shared base when X has an overlay (issue 35, docs/fleets.md):
 * each value goes to the file that declares it for X. The overlay's entries are read for what they
 * set (src/manifest/overlay-owned.ts), the tenant's catalogue is split in two (src/export/overlay-split.ts),
 * the base's files are merged with one half and the overlay's with the other (src/export/merge.ts, the
 * same editor for both), and every tenant's composed catalogue is checked before anything is written
 * (src/export/overlay-verify.ts). Returns the texts to write; export.ts commits them in one go.
 */
import path from "node:path";
import { KIND_NOUN, parsePathKey, pathKey, type Catalogue, type Kind } from "../model/catalogue.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { listManifests, parseManifestData, readManifest, shownName } from "../manifest/index.js";
import { overlayOwnership } from "../manifest/overlay-owned.js";
import type { ParsedManifest } from "../manifest/compose.js";
import { overlayDir, tenantsSharingOverlay } from "../config/overlays.js";
import type { Config } from "../config/index.js";
import { mergeTracked, type MergeInput, type MergeResult } from "../export/merge.js";
import { splitForOverlay, type OverlaySplit } from "../export/overlay-split.js";
import { checkOverlayMerge } from "../export/overlay-verify.js";
import { recordKey, type HandRename } from "../export/merge-state.js";

/** What went where: the counts the command's summary gives. */
export interface OverlayMergeSummary {
  /** The overlay folder, as messages show it. */
  overlay: string;
  /** Values written to the shared base (every tenant that inherits them reads them) and to the overlay. */
  baseValues: number;
  overlayValues: number;
  /** Entries added to the overlay. */
  overlayAdded: number;
  /** `file:line: what`: records the overlay removes ($remove) that the tenant has: left, to decide by hand. */
  removed: string[];
}

export interface OverlayMergeInput extends Omit<MergeInput, "files" | "exported" | "renamedByHand" | "overlay"> {
  cwd: string;
  config: Config;
  tenant: string;
  /** The overlay folder (absolute). */
  overlayDir: string;
  /** The base folder (absolute) and its files' texts, by name relative to it. */
  outDir: string;
  files: Record<string, string>;
  /** The base's catalogue as loaded with the tenant's variables, and the tenant's. */
  base: Catalogue;
  exported: Catalogue;
  /** Records the plan takes for renamed by hand (hand-renames.ts): not followed into a shared base, said so. */
  renamedByHand: readonly HandRename[];
  /** A tenant's variables as manifests read them. */
  variablesOf(tenant: string): Record<string, string>;
}

/**
 * A merge into the base writes the tenant's values and new records to its overlay folder; when
 * other tenants read that folder too, they would take them silently. Refused before the tenant is
 * read (the check of the others' catalogues cannot hold them: their overlay is the one written).
 */
export function refuseSharedOverlay(config: Config, tenant: string, cwd: string): void {
  const others = tenantsSharingOverlay(config, tenant);
  if (!others.length) return;
  const folder = shownName(overlayDir(config, tenant)!, cwd);
  throw new PimctlError(
    "usage",
    `export --merge: tenant "${tenant}"'s overlay folder ${folder} is read by ${others.join(", ")} too, so what the merge writes there ` +
      `would change ${others.length > 1 ? "them" : "it"} as well; nothing was read from the tenant, nothing written`,
    {
      details: [
        `give ${tenant} an overlay folder of its own (tenants.${tenant}.overlay in pimctl.yaml) and merge again`,
        `or export ${tenant} into a folder of its own (pimctl export --tenant ${tenant} --out DIR) and move the values by hand`,
      ],
    },
  );
}

export async function mergeOverlaid(o: OverlayMergeInput): Promise<MergeResult & { summary: OverlayMergeSummary }> {
  // Both folders' files are named relative to where pimctl runs, as the summary and errors name them
  // (catalogue/brands.yaml, overlays/prod-us/brands.yaml: never ../overlays beside the base).
  const baseTexts = rekey(o.files, (name) => shownName(path.join(o.outDir, name), o.cwd));
  const overlayTexts = await readFolder(o.overlayDir, o.cwd);
  const parsed = parseOverlay(overlayTexts, o.variables);
  const owned = overlayOwnership(parsed, o.base);
  const exported = withoutRenamed(o.exported, o.renamedByHand);
  const split = splitForOverlay(exported, o.base, owned, o.tenant);
  const common = { kinds: o.kinds, variables: o.variables };
  const base = mergeTracked({ ...common, files: baseTexts, exported: split.base, header: o.header });
  const overlay = mergeTracked({
    ...common,
    files: overlayTexts,
    exported: split.overlay,
    header: (kind) => overlayHeader(kind, o.tenant),
    overlay: { newFile: (kind) => path.join(shownName(o.overlayDir, o.cwd), `${kind}.yaml`) },
  });
  checkOverlayMerge({
    tenant: o.tenant,
    variables: o.variables,
    before: { base: baseTexts, overlay: overlayTexts },
    after: { base: { ...baseTexts, ...base.report.files }, overlay: { ...overlayTexts, ...overlay.report.files } },
    exported,
    base,
    overlay,
    others: await otherOverlays(o),
  });
  // The texts to write, named relative to the folder merged into, as export.ts writes them.
  const files = rekey({ ...base.report.files, ...overlay.report.files }, (name) => path.relative(o.outDir, path.resolve(o.cwd, name)));
  const added = withoutStubs(overlay.report.added, split);
  const b = base.report;
  const v = overlay.report;
  return {
    files,
    updated: [...b.updated, ...v.updated],
    added: [...b.added, ...added],
    // A record left out for its rename by hand is said once (not merged): the tenant has it, under its new name.
    onlyInFolder: [...b.onlyInFolder, ...v.onlyInFolder].filter((line) => !o.renamedByHand.some((r) => namesRenamed(line, r))),
    byHand: [...b.byHand, ...v.byHand],
    pendingRenames: [...b.pendingRenames, ...v.pendingRenames, ...notFollowed(o.renamedByHand)],
    renamed: [],
    summary: {
      overlay: shownName(o.overlayDir, o.cwd),
      baseValues: b.updated.length,
      overlayValues: v.updated.length,
      overlayAdded: added.length,
      removed: split.removed,
    },
  };
}

/** The same texts under other names. */
function rekey(texts: Record<string, string>, name: (name: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(texts).map(([n, text]) => [name(n), text]));
}

/** The manifest files of a folder, by name relative to cwd. */
async function readFolder(dir: string, cwd: string): Promise<Record<string, string>> {
  const listing = await listManifests(dir, { cwd });
  if (listing.errors.length) throw new PimctlErrors(listing.errors);
  const texts: Record<string, string> = {};
  for (const file of listing.files) {
    const read = await readManifest(file, shownName(file, cwd));
    if ("error" in read) throw new PimctlErrors([read.error]);
    texts[shownName(file, cwd)] = read.text;
  }
  return texts;
}

/** The overlay's files as parsed with the tenant's variables (the workflow loaded them as composed already: they parse). */
function parseOverlay(texts: Record<string, string>, variables: Record<string, string>): ParsedManifest[] {
  return Object.keys(texts)
    .sort()
    .flatMap((file) => {
      const read = parseManifestData(texts[file]!, file, { variables });
      if (read.errors.length) throw new PimctlErrors(read.errors);
      return read.data ? [{ file, data: read.data, parsed: read.parsed }] : [];
    });
}

/** The first lines of a new overlay file: no schema line (its entries are patches, not whole records). */
function overlayHeader(kind: Kind, tenant: string): string {
  return (
    `# ${KIND_NOUN[kind]} entries for ${tenant} only, over the shared manifests: ` +
    "an entry with a base entry's identity changes the fields it sets (docs/fleets.md).\n"
  );
}

/** The other tenants with an overlay, whose composed catalogues the check compares. */
async function otherOverlays(o: OverlayMergeInput) {
  const out = [];
  for (const tenant of Object.keys(o.config.tenants).sort()) {
    const dir = overlayDir(o.config, tenant);
    if (tenant === o.tenant || !dir) continue;
    out.push({ tenant, variables: o.variablesOf(tenant), overlay: await readFolder(dir, o.cwd) });
  }
  return out;
}

/**
 * The overlay merge's "added" lines, a stub (a base record's identity that only carries a new
 * child: overlay-split.ts) said as the children it brings: the value or category added.
 */
function withoutStubs(added: readonly string[], split: OverlaySplit): string[] {
  const out: string[] = [];
  for (const line of added) {
    const stub = [...split.stubs].find((key) => line.endsWith(`: ${stubLabel(key)}`));
    if (!stub) {
      out.push(line);
      continue;
    }
    const file = line.slice(0, -`: ${stubLabel(stub)}`.length);
    const [kind, id] = stub.split("\0") as [Kind, string];
    if (kind === "attributes") {
      const attribute = split.overlay.attributes.find((a) => a.name === id);
      for (const v of attribute?.values ?? []) out.push(`${file}: value "${v.value}" of attribute "${id}"`);
    } else {
      // The new categories under it: each topmost one (its parent a stub too), its subtree with it.
      const under = parsePathKey(id);
      const isStub = (p: string[]) => split.stubs.has(recordKey("categories", pathKey(p)));
      for (const c of split.overlay.categories)
        if (under.every((n, i) => c.path[i] === n) && !isStub(c.path) && isStub(c.path.slice(0, -1))) out.push(`${file}: category "${pathKey(c.path)}"`);
    }
  }
  return out;
}

function stubLabel(key: string): string {
  const [kind, id] = key.split("\0") as [Kind, string];
  return `${KIND_NOUN[kind]} "${id}"`;
}

/**
 * Renames by hand are not followed into a shared base (that would rename the record for every tenant),
 * nor is the new name added to the overlay (the next apply would then make the old name again): the
 * record is left out of the merge, said so, and the next plan renames it back on the same id.
 */
function notFollowed(renames: readonly HandRename[]): string[] {
  return renames.map(
    (r) =>
      `${KIND_NOUN[r.kind]} "${r.from}" is "${r.to}" in the tenant (renamed there by hand; the plan knows it by its id and renames it back): ` +
      `not merged into the shared manifests; to keep the new name, rename the base's entry (previous_names) by hand`,
  );
}

/** Whether a `file:line: what` line names the record renamed by hand (a category's subtree with it). */
function namesRenamed(line: string, r: HandRename): boolean {
  const what = `${KIND_NOUN[r.kind]} "${r.from}`;
  return line.endsWith(`: ${what}"`) || (r.kind === "categories" && line.includes(`: ${what}/`));
}

/** The tenant's catalogue without the records renamed by hand (a category's subtree with it). */
function withoutRenamed(c: Catalogue, renames: readonly HandRename[]): Catalogue {
  if (!renames.length) return c;
  const out: Catalogue = { ...c };
  for (const r of renames) {
    if (r.kind === "categories") {
      const to = parsePathKey(r.to);
      out.categories = out.categories.filter((x) => !to.every((n, i) => x.path[i] === n));
    } else (out[r.kind] as object[]) = (out[r.kind] as Array<{ name?: string; slug?: string }>).filter((x) => (r.kind === "blocks" ? x.slug : x.name) !== r.to);
  }
  return out;
}
