/**
 * What doctor says the changelog refresh does under a feed's readings is what it does: against
 * the same tenant, after a snapshot and a hand edit, `plan --refresh=changelog` reads through the
 * feed where doctor says it uses it, and reads in full saying why in one line where doctor says
 * so (a capped feed, a meta.total that counts the whole tenant or lags one behind). Each edit is a
 * second after what came before, so the read since the snapshot's cursor (whose own second the
 * >= filter lists again) holds the two edits and nothing else.
 */
import { expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import type { EmulatorSwitches } from "../../src/emulator/switches.js";
import { testProject } from "../helpers/project.js";
import { runDoctor, seedTenant } from "./fixture.js";

const nextSecond = () => new Promise((r) => setTimeout(r, 1100));

const CASES: Array<[string, Partial<EmulatorSwitches>, "feed" | "full"]> = [
  ["the document's feed", {}, "feed"],
  ["no meta.total, a small change", { changelogTotal: "absent" }, "feed"],
  ["a meta.total of the whole tenant", { changelogTotal: "tenant" }, "full"],
  ["a meta.total one behind", { changelogTotal: "lagging" }, "full"],
  ["a capped feed", { changelogPaging: "capped" }, "full"],
];

for (const [name, switches, read] of CASES)
  it(`${name}: doctor's word on --refresh=changelog is what plan does`, { timeout: 90_000 }, async () => {
    // The seeded brand, as the manifests hold it.
    const p = await testProject({ emulator: { switches }, files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\n    desc: Tools\n" } });
    try {
      await seedTenant(p.emulator, "demo", p.tokens.demo!);
      const { report } = await runDoctor(p);
      const said = report.findings.filter((f) => (f.switch === "changelogPaging" || f.switch === "changelogTotal") && f.outcome === "known");
      const saysFull = said.some((f) => f.means.includes("--refresh=changelog reads in full and says why in one line"));
      expect({ saysFull, said: said.map((f) => `${f.switch}=${String(f.reading)}`) }).toMatchObject({ saysFull: read === "full" });

      const api = createClient({ tenant: "demo", baseUrl: p.emulator.tenantUrl("demo"), token: p.tokens.demo! });
      const brand = (await api.listBrands())[0]!;
      await nextSecond();
      await api.updateBrand(brand.id, { desc: "Edited first" });
      await p.cli(["plan", "--refresh=changelog", "-q"]);
      await nextSecond();
      await api.updateBrand(brand.id, { desc: "Edited by hand" });
      await api.close();
      const planned = await p.cli(["plan", "--refresh=changelog"]);
      const lines = planned.stderr.split("\n").filter((l) => l.startsWith("Read tenant"));
      expect(lines, planned.stderr).toHaveLength(1);
      if (read === "full") expect(lines[0]).toMatch(/; read in full: the changelog feed[ '][^;]+\)\.$/);
      else expect(lines[0]).toContain("from the changelog");
      expect(planned.stdout).toContain("Edited by hand");
    } finally {
      await p.close();
    }
  });
