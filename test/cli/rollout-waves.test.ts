/**
 * A rollout in the config's waves (`rollout:`), over HTTP against several emulator tenants: a wave
 * starts only when the one before converged, a failed or stale tenant stops it (the later waves are
 * not started), and a saved fleet file is applied tenant by tenant as reviewed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";
import { BRANDS, brandNames, refuseBrands, row } from "./rollout-fixture.js";

const TENANTS = ["prod-eu", "prod-us", "staging"];

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/** Three tenants in three waves: staging, then prod-eu, then the other prod tenants. */
async function fleet(): Promise<TestProject> {
  p = await testProject({
    tenants: TENANTS,
    files: { "catalogue/brands.yaml": BRANDS },
    config: (urls) =>
      [
        "dir: catalogue",
        "tenants:",
        ...TENANTS.flatMap((n) => [`  ${n}:`, `    base_url: ${urls[n]}`, `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`]),
        "rollout:",
        "  - [staging]",
        "  - [prod-eu]",
        "  - ['prod-*']",
        "",
      ].join("\n"),
  });
  return p;
}

/** The tenants in the order their first write reached the emulator, and whether any write came while another tenant's apply was writing. */
function watchWrites(project: TestProject): string[] {
  const order: string[] = [];
  project.emulator.onRequest(({ tenant, method }) => {
    if (method !== "GET" && !order.includes(tenant)) order.push(tenant);
  });
  return order;
}

describe("a rollout in waves", () => {
  it("applies wave after wave, in the config's order, and says each tenant's wave", async () => {
    const project = await fleet();
    const order = watchWrites(project);
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve"]);
    expect(r.code, r.stderr).toBe(0);
    expect(order).toEqual(["staging", "prod-eu", "prod-us"]);
    expect(row(r.stderr, "staging").slice(0, 3)).toEqual(["1", "staging", "applied"]);
    expect(row(r.stderr, "prod-eu").slice(0, 3)).toEqual(["2", "prod-eu", "applied"]);
    expect(row(r.stderr, "prod-us").slice(0, 3)).toEqual(["3", "prod-us", "applied"]);
    // The table lists the tenants in wave order, and each tenant's apply ended before the next wave's began.
    const lines = r.stderr.split("\n");
    const at = (text: string) => lines.findIndex((l) => l.startsWith(text));
    expect(at("staging: applied")).toBeLessThan(at("prod-eu: applying"));
    expect(at("prod-eu: applied")).toBeLessThan(at("prod-us: applying"));
    expect(r.stderr).toContain("Rollout: 3 applied (3 tenants, 3 waves).");
  });

  it("a failed wave stops the rollout: the later waves are not started, and the resume command converges", async () => {
    const project = await fleet();
    const allow = refuseBrands(project, "staging");
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve"]);
    expect(r.code, r.stderr).toBe(4);
    expect(row(r.stderr, "staging").slice(0, 4)).toEqual(["1", "staging", "failed", "4"]);
    expect(row(r.stderr, "prod-eu").slice(0, 3)).toEqual(["2", "prod-eu", "not started"]);
    expect(row(r.stderr, "prod-us").slice(0, 3)).toEqual(["3", "prod-us", "not started"]);
    expect(r.stderr).toContain('failed: brand["Acme"]: Brands are frozen on this tenant.');
    expect(brandNames(project, "prod-eu")).toEqual([]);
    expect(brandNames(project, "prod-us")).toEqual([]);
    expect(r.stderr).toContain("Resume with: pimctl apply --tenant '*' --auto-approve\n");

    allow();
    const again = await project.cli(["apply", "--tenant", "*", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
  });

  it("a tenant that cannot be planned (its token refused) fails at its turn: the waves before it are applied, the ones after not started", async () => {
    const project = await fleet();
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve"], { env: { "PIMCTL_PROD-EU_TOKEN": "not-the-token" } });
    expect(r.code, r.stderr).toBe(4);
    expect(row(r.stderr, "staging").slice(0, 3)).toEqual(["1", "staging", "applied"]);
    const failed = row(r.stderr, "prod-eu");
    expect(failed.slice(0, 4)).toEqual(["2", "prod-eu", "failed", "1"]);
    expect(failed[4]).toMatch(/^not planned: .*401/);
    expect(row(r.stderr, "prod-us").slice(0, 3)).toEqual(["3", "prod-us", "not started"]);
    expect(brandNames(project, "staging")).toEqual(["Acme", "Zenith"]);
    expect(brandNames(project, "prod-us")).toEqual([]);
  });

  it("a saved fleet file: each tenant applied as reviewed; a tenant changed since is stale (exit 5 for it) and stops the rollout", async () => {
    const project = await fleet();
    const saved = await project.cli(["plan", "--tenant", "*", "--out", "fleet.json"]);
    expect(saved.code, saved.stderr).toBe(0);
    // prod-eu changes after the review: its plan made now from its basis is not the reviewed one.
    createBrand(project.emulator.store("prod-eu"), { name: "Acme", desc: "Hand-made" });
    const r = await project.cli(["apply", "fleet.json"]);
    expect(r.code, r.stderr).toBe(4);
    expect(row(r.stderr, "staging").slice(0, 4)).toEqual(["1", "staging", "applied", "0"]);
    const stale = row(r.stderr, "prod-eu");
    expect(stale.slice(0, 4)).toEqual(["2", "prod-eu", "stale", "5"]);
    expect(stale[4]).toContain("fleet.json (tenant prod-eu) is not what a plan made now from its own basis gives");
    expect(row(r.stderr, "prod-us").slice(0, 3)).toEqual(["3", "prod-us", "not started"]);
    expect(brandNames(project, "prod-eu")).toEqual(["Acme"]);
    expect(brandNames(project, "prod-us")).toEqual([]);
    // Running the same file again cannot converge: the next step plans the file again first.
    const next =
      "The saved plans of prod-eu cannot converge (stale, or not planned): running them again fails the same way. " +
      "Plan again: pimctl plan --tenant prod-eu,prod-us,staging --out fleet.json, then run: pimctl apply fleet.json\n";
    expect(r.stderr).toContain(next);
    expect(r.stderr).not.toContain("Resume with:");

    // The same file again: staging is already at its plan, prod-eu still stale, prod-us still waits.
    const again = await project.cli(["apply", "fleet.json"]);
    expect(again.code, again.stderr).toBe(4);
    expect(row(again.stderr, "staging")[2]).toBe("already applied");
    expect(row(again.stderr, "prod-eu")[2]).toBe("stale");
    // The printed next step converges.
    expect((await project.cli(["plan", "--tenant", "prod-eu,prod-us,staging", "--out", "fleet.json"])).code).toBe(0);
    const done = await project.cli(["apply", "fleet.json"]);
    expect(done.code, done.stderr).toBe(0);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
  });

  it("a saved fleet file holding a tenant that could not be planned: the rest go, and the next step plans the file again (not a resume that fails forever)", async () => {
    const project = await fleet();
    const saved = await project.cli(["plan", "--tenant", "*", "--out", "fleet.json"], { env: { "PIMCTL_PROD-US_TOKEN": "not-the-token" } });
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain("Saved the plans of 2 tenants and the 1 error of the rest to fleet.json.");
    const r = await project.cli(["apply", "fleet.json", "--format", "json"]);
    expect(r.code, r.stderr).toBe(4);
    expect(row(r.stderr, "prod-us").slice(0, 3)).toEqual(["3", "prod-us", "failed"]);
    expect(r.stderr).toContain("The saved plans of prod-us cannot converge");
    const json = JSON.parse(r.stdout) as { resume?: string; replan?: { tenants: string[]; command: string } };
    expect(json.replan).toEqual({ tenants: ["prod-us"], command: "pimctl plan --tenant prod-eu,prod-us,staging --out fleet.json" });
    expect(json.resume).toBe("pimctl apply fleet.json");
    expect((await project.cli(["plan", "--tenant", "prod-eu,prod-us,staging", "--out", "fleet.json"])).code).toBe(0);
    const done = await project.cli(["apply", "fleet.json"]);
    expect(done.code, done.stderr).toBe(0);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
  });

  it("a saved fleet file applied twice: every tenant already applied the second time (exit 0)", async () => {
    const project = await fleet();
    expect((await project.cli(["plan", "--tenant", "prod-*,staging", "--out", "fleet.json"])).code).toBe(0);
    const narrowed = await project.cli(["apply", "fleet.json", "--tenant", "staging"]);
    expect(narrowed.code).toBe(1);
    expect(narrowed.stderr).toContain("fleet.json is a fleet plan: it is applied whole, to the tenants it was made for (drop --tenant)");
    const r = await project.cli(["apply", "fleet.json"]);
    expect(r.code, r.stderr).toBe(0);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
    const again = await project.cli(["apply", "fleet.json"]);
    expect(again.code, again.stderr).toBe(0);
    for (const t of TENANTS) expect(row(again.stderr, t)[2]).toBe("already applied");
    expect(again.stderr).not.toContain("Resume with:");
  });

  it("asks once on a terminal: anything but yes applies nothing", async () => {
    const project = await fleet();
    const no = await project.cli(["apply", "--tenant", "*"], { answers: ["no"] });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain("Apply to 3 tenants with changes, in 3 waves? Only 'yes' is accepted: ");
    expect(no.stderr).toContain("Apply cancelled; nothing was changed.");
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual([]);
    const yes = await project.cli(["apply", "--tenant", "*"], { answers: ["yes"] });
    expect(yes.code, yes.stderr).toBe(0);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
  });
});
