/**
 * What was reviewed is what runs: a saved plan is applied only if a plan made
 * now from its own basis is exactly it. Every tampering case below is refused
 * with exit 1 or 5 and the emulator receives no write request.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { sealPlan } from "../../src/planfile/integrity.js";
import type { Plan } from "../../src/plan/types.js";

let p: TestProject;
const catalogue = "brands:\n  - name: Acme\n    desc: Tools since 1950\n  - name: Zenith\n    desc: Clocks\n";

beforeAll(async () => {
  p = await testProject({ files: { "catalogue/brands.yaml": catalogue } });
  const store = p.emulator.store("demo");
  store.createBrand({ name: "Acme", desc: "old text" });
  store.createBrand({ name: "Zenith", desc: "old clocks" });
  store.createBrand({ name: "Oldco" });
});
afterAll(async () => p.close());

function writes(): number {
  const m = p.emulator.stats().requests.byMethod;
  return (m.POST ?? 0) - (p.emulator.stats().requests.byRoute["POST /brands/search"] ?? 0) + (m.PUT ?? 0) + (m.PATCH ?? 0) + (m.DELETE ?? 0);
}

async function savePlan(file: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Plan> {
  const r = await p.cli(["plan", "--out", file, "--quiet", ...extra], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(readFileSync(path.join(p.dir, file), "utf8")) as Plan;
}

/** Write an edited plan; `reseal` recomputes the digest, as a deliberate editor could. */
function writePlan(file: string, plan: unknown, reseal: boolean): void {
  const body = reseal ? sealPlan(plan as Plan, undefined) : plan;
  writeFileSync(path.join(p.dir, file), `${JSON.stringify(body, null, 2)}\n`);
}

async function applyRefused(file: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stderr: string }> {
  p.emulator.resetStats();
  const r = await p.cli(["apply", file], { env });
  expect(writes(), `writes after apply ${file}: ${r.stderr}`).toBe(0);
  expect(r.stderr).not.toMatch(/internal error|TypeError|    at /);
  return r;
}

describe("apply PLAN_FILE refuses anything but the reviewed plan, before any write", () => {
  let saved: Plan;
  beforeEach(async () => {
    saved = await savePlan("plan.json");
    expect(saved.actions.map((a) => a.address)).toEqual(['brand["Acme"]', 'brand["Zenith"]']);
    expect(saved.integrity?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("an edited action body: the digest catches it (exit 1); resealed, the re-plan does (exit 5)", async () => {
    const edited = structuredClone(saved);
    edited.actions[1]!.changes[0]!.after = "a description meant for another brand";
    writePlan("edited.json", edited, false);
    const r1 = await applyRefused("edited.json");
    expect(r1.code).toBe(1);
    expect(r1.stderr).toContain("edited.json was edited after it was saved: its digest does not match its content");
    writePlan("edited.json", edited, true);
    const r2 = await applyRefused("edited.json");
    expect(r2.code).toBe(5);
    expect(r2.stderr).toContain('edited: brand["Zenith"] (changes differ from a plan made now)');
  });

  it("an edited id (the description aimed at another record) is refused (exit 5)", async () => {
    const edited = structuredClone(saved);
    const acme = edited.actions[0]!.refs.self as { id: number };
    edited.actions[1]!.refs.self = { id: acme.id };
    writePlan("id.json", edited, true);
    const r = await applyRefused("id.json");
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('edited: brand["Zenith"] (refs differ from a plan made now)');
  });

  it("an added action and a removed action are refused (exit 5)", async () => {
    const added = structuredClone(saved);
    added.actions.push({ ...structuredClone(added.actions[0]!), address: 'brand["Oldco"]', refs: { self: { id: 3 } } });
    added.fingerprints['brand["Oldco"]'] = "0000000000000000";
    writePlan("added.json", added, true);
    const r1 = await applyRefused("added.json");
    expect(r1.code).toBe(5);
    expect(r1.stderr).toContain('changed: brand["Oldco"] (a plan made now has no such action');

    const removed = structuredClone(saved);
    removed.actions.pop();
    writePlan("removed.json", removed, true);
    const r2 = await applyRefused("removed.json");
    expect(r2.code).toBe(5);
    expect(r2.stderr).toContain('not in the saved plan: brand["Zenith"]');
  });

  it('blanked "fingerprints": {} does not switch the check off (exit 5)', async () => {
    writePlan("blank.json", { ...saved, fingerprints: {} }, true);
    const r = await applyRefused("blank.json");
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('no fingerprint: brand["Acme"]');
    expect(r.stderr).toContain('no fingerprint: brand["Zenith"]');
  });

  it("a missing fingerprints key is a schema error naming the path (exit 1), not a TypeError", async () => {
    const { fingerprints: _f, ...rest } = saved;
    writePlan("nokey.json", rest, true);
    const r = await applyRefused("nokey.json");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('does not match the plan schema (schemas/plan.schema.json) at (top level): missing "fingerprints"');
    writePlan("badtype.json", { ...saved, actions: [{ ...saved.actions[0], depends_on: "x" }] }, true);
    const r2 = await applyRefused("badtype.json");
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain("at actions[0].depends_on: must be array");
  });

  it("an edited basis (the catalogue it re-plans from) is refused (exit 5)", async () => {
    const edited = structuredClone(saved);
    edited.basis!.desired.brands[0]!.desc = "sneaked in";
    writePlan("basis.json", edited, true);
    const r = await applyRefused("basis.json");
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('edited: brand["Acme"]');
  });

  it("a plan narrowed with --target applies: the re-plan uses the saved targets", async () => {
    const narrowed = await savePlan("target.json", ["--target", 'brand["Zen*"]']);
    expect(narrowed.basis?.targets).toEqual(['brand["Zen*"]']);
    expect(narrowed.actions.map((a) => a.address)).toEqual(['brand["Zenith"]']);
    const r = await p.cli(["apply", "target.json"]);
    expect(r.code, r.stderr).toBe(0);
    const store = p.emulator.store("demo");
    const zenith = [...store.brands.values()].find((b) => b.name === "Zenith")!;
    expect(zenith.desc).toBe("Clocks");
    store.updateBrand(zenith.id, { desc: "old clocks" });
  });

  it("the unedited plan applies, and a re-plan shows no changes", async () => {
    const r = await p.cli(["apply", "plan.json"]);
    expect(r.code, r.stderr).toBe(0);
    expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    p.emulator.store("demo").updateBrand([...p.emulator.store("demo").brands.values()].find((b) => b.name === "Acme")!.id, { desc: "old text" });
  });
});

describe("a saved plan applied twice (a re-run of the job that applied it)", () => {
  it("says it was already applied and writes nothing: exit 0 by default, exit 5 with --if-applied=fail", async () => {
    const demo = p.emulator.store("demo");
    const brand = (name: string) => [...demo.brands.values()].find((b) => b.name === name)!;
    demo.updateBrand(brand("Acme").id, { desc: "old text" });
    demo.updateBrand(brand("Zenith").id, { desc: "old clocks" });
    expect((await savePlan("once.json")).actions).toHaveLength(2);
    const first = await p.cli(["apply", "once.json"]);
    expect(first.code, first.stderr).toBe(0);
    p.emulator.resetStats();
    const again = await p.cli(["apply", "once.json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      "once.json was already applied: the tenant already looks as the plan leaves it (a plan made now from its basis has no changes). Nothing to do.",
    );
    expect(again.stderr).not.toContain("the tenant changed, or the file was edited");
    const strict = await p.cli(["apply", "once.json", "--if-applied", "fail"]);
    expect(strict.code).toBe(5);
    expect(strict.stderr).toContain("once.json was already applied");
    expect(strict.stderr).toContain("pass --if-applied=ok");
    expect(writes()).toBe(0);
    // Half of it undone by hand: the rest is what a plan made now has, and the message says so.
    const zen = [...p.emulator.store("demo").brands.values()].find((b) => b.name === "Zenith")!;
    p.emulator.store("demo").updateBrand(zen.id, { desc: "old clocks" });
    const half = await p.cli(["apply", "once.json"]);
    expect(half.code).toBe(5);
    expect(half.stderr).toContain(
      "1 of its 2 actions are already done, and a plan made now has only the rest (a run that stopped part way?): make a new plan to finish",
    );
    p.emulator.store("demo").updateBrand(zen.id, { desc: "Clocks" });
    // A tenant changed since in another way is still stale, not "applied".
    const store = p.emulator.store("demo");
    const acme = [...store.brands.values()].find((b) => b.name === "Acme")!;
    store.updateBrand(acme.id, { desc: "edited by hand" });
    const stale = await p.cli(["apply", "once.json"]);
    expect(stale.code).toBe(5);
    expect(stale.stderr).toContain("the tenant changed, or the file was edited");
    store.updateBrand(acme.id, { desc: "old text" });
    store.updateBrand([...store.brands.values()].find((b) => b.name === "Zenith")!.id, { desc: "old clocks" });
  });
});

describe("signed plans (PIMCTL_PLAN_HMAC_KEY)", () => {
  const key = { PIMCTL_PLAN_HMAC_KEY: "pipeline-secret" };
  it("a signed plan applies with the key; resealed edits, a missing key or a wrong key are refused (exit 1)", async () => {
    const signed = await savePlan("signed.json", [], key);
    expect(signed.integrity?.hmac).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(readFileSync(path.join(p.dir, "signed.json"), "utf8")).not.toContain("pipeline-secret");
    const noKey = await applyRefused("signed.json");
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("is signed, but PIMCTL_PLAN_HMAC_KEY is not set");
    const wrong = await applyRefused("signed.json", { PIMCTL_PLAN_HMAC_KEY: "other" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("the signature does not verify");
    const edited = structuredClone(signed);
    edited.actions[0]!.changes[0]!.after = "edited";
    writePlan(
      "signed-edited.json",
      { ...sealPlan(edited, undefined), integrity: { ...sealPlan(edited, undefined).integrity, hmac: signed.integrity!.hmac } },
      false,
    );
    const tampered = await applyRefused("signed-edited.json", key);
    expect(tampered.code).toBe(1);
    await savePlan("unsigned.json");
    const unsigned = await applyRefused("unsigned.json", key);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toContain("is not signed, but PIMCTL_PLAN_HMAC_KEY is set");
    const ok = await p.cli(["apply", "signed.json"], { env: key });
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe("deletes: permission decided at plan time, never dropped silently", () => {
  beforeAll(async () => {
    await p.write("pimctl.yaml", `${readFileSync(path.join(p.dir, "pimctl.yaml"), "utf8")}prune:\n  brands: true\n`);
  });

  it("a prune plan made without --allow-delete shows its deletes as blocked and apply refuses it before any write (exit 3)", async () => {
    const blocked = await savePlan("prune.json");
    expect(blocked.deletes_allowed).toBe(false);
    const del = blocked.actions.find((a) => a.op === "delete")!;
    expect(del).toMatchObject({ address: 'brand["Oldco"]', flags: { blocked: true } });
    const text = await p.cli(["plan"]);
    expect(text.stdout).toContain('- brand["Oldco"]  (delete, blocked: needs plan --allow-delete)');
    expect(text.stdout).toContain("1 delete is blocked: this plan was made without --allow-delete");
    const md = await p.cli(["plan", "--format", "markdown"]);
    expect(md.stdout).toContain("**Blocked deletes**");
    const json = JSON.parse((await p.cli(["plan", "--format", "json"])).stdout) as Plan;
    expect(json.deletes_allowed).toBe(false);

    const r = await applyRefused("prune.json");
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('blocked delete: brand["Oldco"]');
    p.emulator.resetStats();
    const withFlag = await p.cli(["apply", "prune.json", "--allow-delete"]);
    expect(withFlag.code).toBe(3);
    expect(withFlag.stderr).toContain("the permission to delete is decided at plan time");
    expect(writes()).toBe(0);
    const live = await p.cli(["apply", "--auto-approve"]);
    expect(live.code).toBe(3);
    expect(live.stderr).toContain("Pass --allow-delete");
    expect([...p.emulator.store("demo").brands.values()].some((b) => b.name === "Oldco")).toBe(true);
  });

  it("a permission flipped in the file (not in its basis) is refused by the re-plan (exit 5)", async () => {
    const blocked = await savePlan("flip.json");
    const flipped = structuredClone(blocked);
    flipped.deletes_allowed = true;
    for (const a of flipped.actions) delete a.flags.blocked;
    writePlan("flip.json", flipped, true);
    const r = await applyRefused("flip.json");
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('edited: brand["Oldco"] (flags differ from a plan made now)');
  });

  it("a prune plan made with --allow-delete deletes when applied in a pipeline (no flag at apply)", async () => {
    const permitted = await savePlan("prune-ok.json", ["--allow-delete"]);
    expect(permitted.deletes_allowed).toBe(true);
    expect(permitted.actions.find((a) => a.op === "delete")?.flags.blocked).toBeUndefined();
    const r = await p.cli(["apply", "prune-ok.json", "--report", "report.json"]);
    expect(r.code, r.stderr).toBe(0);
    expect([...p.emulator.store("demo").brands.values()].some((b) => b.name === "Oldco")).toBe(false);
  });
});
