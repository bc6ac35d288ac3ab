/**
 * `translations import` at scale (issue 32; prints figures, not a timed test): 8 manifests of about
 * 1.4 MB, each 500 attributes with 15 values (8,000 texts, French and German there, Spanish not),
 * and a CSV of the 64,000 Spanish translations, imported by pimctl in its own process as a user runs
 * it: the dry run and the real run, each the median of 3 on a fresh copy of the files. Issue 32's
 * target: 10 s or less for either on this project's 2-core machine (before: 4.5 minutes for the dry run).
 * Run: npm run build && node dist/bench/import.js [--files N] [--texts N]
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { child, mb, median, seconds, type Run } from "./processes.js";

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const FILES = arg("--files", 8);
const TEXTS = arg("--texts", 8000);

/** The manifests (file name -> text) and the CSV translating every text of them. */
function generate(): { manifests: Map<string, string>; csv: string } {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const rows = ["id,state,source,target,notes"];
  const manifests = new Map<string, string>();
  for (let f = 1; f <= FILES; f++) {
    const lines = ["attributes:"];
    for (let a = 0; a < TEXTS / 16; a++) {
      const name = `Attribute ${f}-${String(a).padStart(4, "0")}`;
      lines.push(`  - name: ${name}`, "    type: selectbox", "    note: A note for translators", "    versions:");
      lines.push("      French:", `        name: Attribut ${f}-${a}`, "      German:", `        name: Merkmal ${f}-${a}`, "    values:");
      rows.push([q(`attribute["${name}"].version["Spanish"].field["name"]`), "new", q(name), q(`Atributo ${f}-${a}`), ""].join(","));
      for (let v = 0; v < 15; v++) {
        const value = `Value ${f}-${a}-${v} of a selectable value`;
        lines.push(`      - value: ${value}`, "        versions:");
        lines.push(`          French: Valeur ${f}-${a}-${v} d'une valeur assez longue`, `          German: Wert ${f}-${a}-${v} eines recht langen Wertes`);
        rows.push([q(`attribute["${name}"].value["${value}"].version["Spanish"]`), "new", q(value), q(`Valor ${f}-${a}-${v}`), ""].join(","));
      }
    }
    manifests.set(`attributes-${f}.yaml`, `${lines.join("\n")}\n`);
  }
  return { manifests, csv: `${rows.join("\n")}\n` };
}

async function freshProject(dir: string, manifests: Map<string, string>, csv: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, "catalogue"), { recursive: true });
  await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\n");
  await writeFile(path.join(dir, "es.csv"), csv);
  for (const [name, text] of manifests) await writeFile(path.join(dir, "catalogue", name), text);
}

const root = await mkdtemp(path.join(tmpdir(), "pimctl-bench-import-"));
try {
  const { manifests, csv } = generate();
  const bytes = [...manifests.values()].reduce((n, t) => n + t.length, 0);
  const measure = path.join(path.dirname(new URL(import.meta.url).pathname), "measure.js");
  const figures: Array<[string, Run[]]> = [];
  for (const dryRun of [true, false]) {
    const runs: Run[] = [];
    for (let i = 0; i < 3; i++) {
      const dir = path.join(root, "project");
      await freshProject(dir, manifests, csv);
      const run = await child([measure, "translations", "import", "es.csv", ...(dryRun ? ["--dry-run"] : [])], dir);
      if (run.code !== 0) throw new Error(`the import failed (exit ${run.code}): ${run.stderr.slice(0, 2000)}`);
      runs.push(run);
    }
    figures.push([dryRun ? "dry run" : "real run", runs]);
  }
  console.log(
    `translations import of ${FILES * TEXTS} translations into ${FILES} files of ${(bytes / FILES / 1048576).toFixed(2)} MB (median of 3, own process):`,
  );
  for (const [what, runs] of figures)
    console.log(
      `  ${what}: ${seconds(median(runs.map((r) => r.ms)))}, peak ${mb(median(runs.map((r) => r.rss)))} (runs: ${runs.map((r) => seconds(r.ms)).join(", ")})`,
    );
} finally {
  await rm(root, { recursive: true, force: true });
}
