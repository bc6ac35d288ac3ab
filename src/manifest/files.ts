/** The manifest files of a directory: every .yaml/.yml below it but pimctl.yaml, translations.lock.yaml, hidden entries and node_modules, in name order. */
import { readdir } from "node:fs/promises";
import path from "node:path";

export async function manifestFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (d: string): Promise<void> => {
    for (const entry of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) await visit(p);
      else if (/\.ya?ml$/.test(entry.name) && entry.name !== "pimctl.yaml" && entry.name !== "pimctl.yml" && entry.name !== "translations.lock.yaml") out.push(p);
    }
  };
  await visit(dir);
  return out;
}
