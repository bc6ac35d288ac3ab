/**
 * A record pimctl creates under an id the ledger still holds entries for (a tenant restored from a
 * backup, or a service that gives a deleted id again) starts with nothing written: the web ids,
 * assets and attribute sets the ledger remembered under that id belonged to the record that had
 * it before (issue 37, found in review). Before, apply kept them: the new record then carried
 * another brand's web ids in `export` (written into the manifests), in `diff` (written into the
 * other tenant) and in `state show`, and a web id it declared with the same value was never
 * written.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { testProject, type TestProject } from "../helpers/project.js";

const config = (url: string) => ["dir: catalogue", "tenants:", "  demo:", `    base_url: ${url}`, "    token_env: PIMCTL_DEMO_TOKEN", ""].join("\n");

const zenith = [
  "  - name: Zenith",
  "    desc: Watches",
  "    web_ids: { Webshop: zenith-01 }",
  "    assets: [{ image_url: 'https://cdn.example.com/zenith.png', alttext: Zenith, thumbnail: true }]",
];

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

for (const idSequence of ["per-table", "global"] as const) {
  describe(`ids read ${idSequence}`, () => {
    it("a brand created under an id the ledger held for a brand before a restore carries none of that brand's write-only entries", async () => {
      p = await testProject({
        files: { "catalogue/a.yaml": ["brands:", ...zenith, ""].join("\n") },
        config: (u) => config(u.demo!),
        emulator: { switches: { idSequence } },
      });
      expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
      const before = p.emulator.store("demo").brandByName.get("Zenith")!;

      // Restored from a backup made before Zenith existed; the manifests now declare Acme instead.
      p.emulator.resetTenant("demo");
      await p.write("catalogue/a.yaml", ["brands:", "  - name: Acme", "    desc: Tools", ""].join("\n"));
      const applied = await p.cli(["apply", "--auto-approve"]);
      expect(applied.code, applied.stderr + applied.stdout).toBe(0);
      const store = p.emulator.store("demo");
      expect(store.brandByName.get("Acme")).toBe(before);

      const state = await p.cli(["state", "show", "--offline"]);
      expect(state.stdout).not.toContain(`brand:${before}  web_ids`);
      expect(state.stdout).not.toContain(`brand:${before}  assets`);
      const exported = await p.cli(["export", "--out", "exported", "--kinds", "brands"]);
      expect(exported.code, exported.stderr).toBe(0);
      const brands = await readFile(path.join(p.dir, "exported/brands.yaml"), "utf8");
      expect(brands).not.toContain("zenith-01");
      expect(brands).not.toMatch(/^\s+web_ids:/m);
      expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    }, 30_000);
  });
}
