/**
 * Loading and validating a large manifest directory (prints figures; not a
 * timed test): 50,000 categories and 5,000 attributes with 20,000 values.
 * Run: npm run build && node dist/bench/manifest.js
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { stringify } from "yaml";
import { loadManifests } from "../manifest/index.js";

// The files are generated in a child process, so that the measured process starts clean
// (as `pimctl validate` does) instead of carrying the generator's garbage.
if (process.argv[2] === "--generate") {
  await generate(process.argv[3]!);
  process.exit(0);
}

async function generate(dir: string): Promise<void> {
  const attributes = Array.from({ length: 5000 }, (_, a) => ({
    name: `Attribute ${a}`,
    type: "selectbox",
    versions: { French: { name: `Attribut ${a}` } },
    values: Array.from({ length: 4 }, (_, v) => ({ value: `Value ${a}-${v}`, versions: { French: `Valeur ${a}-${v}` } })),
  }));
  // 50 roots x 20 children x 49 grandchildren = 50,000 categories
  const categories = Array.from({ length: 50 }, (_, r) => ({
    name: `Root ${r}`,
    children: Array.from({ length: 20 }, (_, c) => ({
      name: `Child ${c}`,
      children: Array.from({ length: 49 }, (_, g) => ({ name: `Leaf ${g}`, is_visible: true })),
    })),
  }));
  await writeFile(path.join(dir, "attributes.yaml"), stringify({ attributes }));
  await writeFile(path.join(dir, "categories.yaml"), stringify({ categories }));
}

const dir = await mkdtemp(path.join(tmpdir(), "pimctl-bench-manifest-"));
try {
  execFileSync(process.execPath, [new URL(import.meta.url).pathname, "--generate", dir]);
  const t0 = performance.now();
  const result = await loadManifests(dir);
  const ms = performance.now() - t0;
  const values = result.catalogue.attributes.reduce((n, a) => n + (a.values?.length ?? 0), 0);
  console.log(
    `loaded and validated ${result.catalogue.categories.length} categories and ${result.catalogue.attributes.length} attributes with ${values} values ` +
      `in ${ms.toFixed(0)} ms (${result.errors.length} errors)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
