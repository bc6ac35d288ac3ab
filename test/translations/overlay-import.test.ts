/**
 * translations import for a tenant with an overlay (issue 35): each text is written to the file
 * that declares it for that tenant, the overlay when the overlay sets that field, else the base;
 * a base entry is never copied into the overlay. Real files, the CLI in-process.
 */
import { readFile, mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";

let dir: string;
afterEach(async () => rm(dir, { recursive: true, force: true }));

const CONFIG = [
  "dir: catalogue",
  "overlays: overlays",
  "tenants:",
  "  prod-eu: { base_url: 'https://eu.example.com/api/v1', token_env: T }",
  "  prod-us: { base_url: 'https://us.example.com/api/v1', token_env: T }",
  "",
].join("\n");
const BASE = "attributes:\n  - name: Material\n    type: text\n    versions:\n      French:\n        name: Matière\n  - name: Finish\n    type: text\n";
const OVERLAY = "attributes:\n  - name: Material\n    versions:\n      French: { name: Matière US }\n  - name: Grip\n    type: text\n";

async function project(): Promise<void> {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-overlay-"));
  await mkdir(path.join(dir, "catalogue"));
  await mkdir(path.join(dir, "overlays", "prod-us"), { recursive: true });
  await writeFile(path.join(dir, "pimctl.yaml"), CONFIG);
  await writeFile(path.join(dir, "catalogue", "c.yaml"), BASE);
  await writeFile(path.join(dir, "overlays", "prod-us", "a.yaml"), OVERLAY);
}
const cli = async (...args: string[]) => {
  const io = memoryIo({ cwd: dir, env: {} });
  const code = await run(args, io);
  return { code, stdout: io.out.join(""), stderr: io.err.join("") };
};
const read = (file: string) => readFile(path.join(dir, file), "utf8");
const csv = (rows: Array<[string, string, string]>) =>
  `id,state,source,target,notes\n${rows.map(([id, source, target]) => [id, "new", source, target, ""].map((c) => `"${c.replace(/"/g, '""')}"`).join(",")).join("\n")}\n`;
const nameUnit = (attribute: string, version: string) => `attribute["${attribute}"].version["${version}"].field["name"]`;

describe("translations import with an overlay", () => {
  it("writes a text the overlay sets to the overlay, one it does not to the base, and an overlay-only record's to the overlay", async () => {
    await project();
    await writeFile(
      path.join(dir, "s.csv"),
      csv([
        [nameUnit("Material", "Spanish"), "Material", "Materia"],
        [nameUnit("Material", "French"), "Material", "Matériau US"],
        [nameUnit("Grip", "French"), "Grip", "Prise"],
      ]),
    );
    const r = await cli("translations", "import", "s.csv", "--tenant", "prod-us");
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);
    expect(await read("catalogue/c.yaml")).toBe(BASE.replace("        name: Matière\n", "        name: Matière\n      Spanish:\n        name: Materia\n"));
    expect(await read("overlays/prod-us/a.yaml")).toBe(
      "attributes:\n  - name: Material\n    versions:\n      French: { name: Matériau US }\n  - name: Grip\n    type: text\n    versions:\n      French:\n        name: Prise\n",
    );
    // The composed catalogue of each tenant loads, each with its own French name.
    expect((await cli("validate", "--tenant", "*")).code).toBe(0);
  });

  it("without --tenant, the base alone: the overlay is never written", async () => {
    await project();
    await writeFile(path.join(dir, "s.csv"), csv([[nameUnit("Material", "French"), "Material", "Matériau"]]));
    expect((await cli("translations", "import", "s.csv")).code).toBe(0);
    expect(await read("catalogue/c.yaml")).toContain("name: Matériau\n");
    expect(await read("overlays/prod-us/a.yaml")).toBe(OVERLAY);
  });
});
