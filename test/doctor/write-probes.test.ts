/**
 * Write probes write only when asked, never to a tenant the config marks production, and leave
 * nothing behind: not when a probe fails, not when the fixture cannot be finished. What an
 * earlier run could not remove (a killed process) is found by the prefix, listed with its
 * command, and removed by that command.
 */
import { afterEach, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { PROBE_PREFIX } from "../../src/doctor/probe-records.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { findingOf, probeRecordsLeft, runDoctor, seedTenant } from "./fixture.js";

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

const productionConfig = (urls: Record<string, string>) =>
  `dir: catalogue\ntenants:\n  demo:\n    base_url: ${urls.demo}\n    token_env: PIMCTL_DEMO_TOKEN\n    production: true\n`;

it("refuses --write-probes and --remove-leftovers on a tenant marked production, before any request (exit 3)", async () => {
  p = await testProject({ config: productionConfig });
  for (const flag of ["--write-probes", "--remove-leftovers"]) {
    const r = await p.cli(["doctor", flag]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`tenant "demo" is marked production: true in the config: pimctl doctor never writes to it (${flag})`);
  }
  expect(p.emulator.stats().requests.total).toBe(0);
  // Read-only doctor is fine on production.
  const read = await runDoctor(p);
  expect(read.report.findings.length).toBeGreaterThan(0);
});

it("removes every probe record when a probe fails, and when the fixture cannot be finished", { timeout: 60_000 }, async () => {
  p = await testProject({ emulator: { exportStepMs: 5 } });
  await seedTenant(p.emulator, "demo", p.tokens.demo!);
  // A set member's DELETE keeps failing: that probe fails, the others go on, the cleanup still runs.
  p.emulator.injectFaults([{ method: "DELETE", route: "/attribute_sets/:id/attributes/:assignment", mode: "error500", times: 50 }]);
  const failing = await runDoctor(p, ["--write-probes"]);
  expect(findingOf(failing.report, "setAttributeDeleteId")).toMatchObject({ outcome: "undetermined" });
  expect(findingOf(failing.report, "setAttributeDeleteId").means).toContain("the probe failed");
  expect(findingOf(failing.report, "idSequence").outcome).toBe("known");
  expect(failing.report.write_probes.left).toEqual([]);
  expect(probeRecordsLeft(p.emulator, "demo")).toEqual([]);
  p.emulator.clearFaults();

  // The category of the fixture cannot be made: what was made before it goes, the reads go on.
  p.emulator.injectFaults([{ method: "POST", route: "/categories", mode: "rate429", times: 50, retryAfter: "0" }]);
  const cut = await runDoctor(p, ["--write-probes"]);
  expect(cut.report.write_probes.why_not).toContain("the probe records could not be made");
  expect(cut.report.write_probes.removed.map((r) => r.kind).sort()).toEqual(["attribute", "attribute", "attribute_set", "brand", "brand"]);
  expect(findingOf(cut.report, "assetUri").outcome).toBe("not-probed");
  expect(findingOf(cut.report, "dateFormat").outcome).toBe("known");
  expect(probeRecordsLeft(p.emulator, "demo")).toEqual([]);
});

it("lists what an earlier run left, by its prefix, with the command that removes it; that command removes it", { timeout: 60_000 }, async () => {
  p = await testProject();
  // What a run killed with SIGKILL mid-probe leaves: a category tree, a brand with an asset, a set.
  const api = createClient({ tenant: "demo", baseUrl: p.emulator.tenantUrl("demo"), token: p.tokens.demo! });
  const name = (what: string) => `${PROBE_PREFIX}20261127T000000Z-dead ${what}`;
  const parent = await api.createCategory({ parent_id: 0, name: name("category") });
  await api.createCategory({ parent_id: parent.id, name: name("child") });
  const brand = await api.createBrand({ name: name("brand") });
  await api.createBrandAsset(brand.id, { image_url: "https://cdn.example.com/x.png", alttext: name("asset") });
  await api.createAttributeSet({ name: name("set") });
  await api.createBrand({ name: "Acme" });
  await api.close();

  const listed = await runDoctor(p);
  expect(listed.code).toBe(1);
  expect(listed.report.leftovers.map((l) => `${l.kind} ${l.name}`).sort()).toEqual(
    [`attribute_set ${name("set")}`, `brand ${name("brand")}`, `category ${name("category")}`, `category ${name("child")}`].sort(),
  );
  for (const l of listed.report.leftovers) expect(l.remove).toBe("pimctl doctor --remove-leftovers");
  expect(listed.stderr).toContain("4 record(s) of earlier doctor runs are still in the tenant");
  const text = await p.cli(["doctor"]);
  expect(text.stdout).toContain(`category ${parent.id} "${name("category")}": remove with: pimctl doctor --remove-leftovers`);

  const removed = await runDoctor(p, ["--remove-leftovers"]);
  expect(removed.code, removed.stderr).toBe(0);
  expect(removed.report.leftovers_removed).toHaveLength(4);
  expect(probeRecordsLeft(p.emulator, "demo")).toEqual([]);
  expect([...p.emulator.store("demo").brands.values()].map((b) => b.name)).toEqual(["Acme"]);
});

it("takes --export-profile and --probe-image only with --write-probes, and not --remove-leftovers with it", async () => {
  p = await testProject();
  const lone = await p.cli(["doctor", "--export-profile", "1"]);
  expect(lone.code).toBe(1);
  expect(lone.stderr).toContain("export-profile -> write-probes");
  const both = await p.cli(["doctor", "--write-probes", "--remove-leftovers"]);
  expect(both.code).toBe(1);
  expect(both.stderr).toContain("mutually exclusive");
  expect(p.emulator.stats().requests.total).toBe(0);
});
