/**
 * Cases a review found where a targeted plan differed from the full plan narrowed (issue 27):
 * a `name:` whose value is on a later line read as the name "name:" by the line scan (the
 * targeted plan deleted what the full plan updates), a target on a record's old address (the
 * targeted plan deleted what the full plan renames), and a `versions:` flow mapping on the line
 * below its key (the targeted plan lost that version). Each is now the full plan narrowed.
 */
import { describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { filterPlan } from "../../src/plan/filter.js";
import { applyIgnore } from "../../src/plan/scope.js";
import { canonicalJson } from "../../src/plan/canonical-json.js";
import type { Plan } from "../../src/plan/types.js";

const config = (url: string) =>
  `dir: catalogue\nversions: { French: 2, German: 3 }\nprune: { brands: true, categories: true, type_values: true }\ntenants:\n  demo:\n    base_url: ${url}\n    token_env: PIMCTL_DEMO_TOKEN\n`;

/** The tenant as `applied` leaves it, then the manifests as `edited`: the full plan narrowed and the targeted plan. */
async function both(applied: Record<string, string>, edited: Record<string, string>, targets: string[], extra: string[] = []) {
  const p: TestProject = await testProject({ config: (u) => config(u.demo!) });
  try {
    for (const [f, t] of Object.entries(applied)) await p.write(f, t);
    const a = await p.cli(["apply", "--auto-approve"]);
    expect(a.code, a.stderr).toBe(0);
    for (const [f, t] of Object.entries(edited)) await p.write(f, t);
    const full = await p.cli(["plan", "--format", "json", ...extra]);
    const targeted = await p.cli(["plan", "--format", "json", ...extra, ...targets.flatMap((t) => ["--target", t])]);
    expect(full.code, full.stderr).toBe(0);
    expect(targeted.code, targeted.stderr).toBe(0);
    const narrowed = filterPlan(applyIgnore(JSON.parse(full.stdout) as Plan, {}), { targets });
    const got = JSON.parse(targeted.stdout) as Plan;
    return { narrowed, got, actions: (x: Plan) => x.actions.map((y) => canonicalJson(y)) };
  } finally {
    await p.close();
  }
}

const brands = (text: string) => ({ "catalogue/brands.yaml": text });
const categories = (text: string) => ({ "catalogue/categories.yaml": text });

describe("a targeted plan equals the full plan narrowed", () => {
  it('when a name\'s value is on a later line, after a comment (the entry is loaded, not taken for one named "name:")', async () => {
    const r = await both(
      brands("brands:\n  - name: Foo\n    desc: old\n  - name: Bar\n"),
      brands("brands:\n  - name:\n# note\n      Foo\n    desc: new\n  - name: Bar\n"),
      ['brand["Foo"]'],
    );
    expect(r.got.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['update brand["Foo"]']);
    expect(r.actions(r.got)).toEqual(r.actions(r.narrowed));
  }, 60_000);

  it("when the target is a brand's or a category's old address, renamed in the manifests: nothing to do there, no delete", async () => {
    const r = await both(
      { ...brands("brands:\n  - name: Foo\n"), ...categories("categories:\n  - name: Root\n    children:\n      - name: Kid\n") },
      {
        ...brands("brands:\n  - name: Fooz\n    previous_names: [Foo]\n"),
        ...categories("categories:\n  - name: Root\n    children:\n      - name: Kidz\n        previous_names: [Kid]\n"),
      },
      ['brand["Foo"]', 'category["Root/Kid"]'],
      ["--allow-delete"],
    );
    expect(r.narrowed.actions).toEqual([]);
    expect(r.got.actions).toEqual([]);
  }, 60_000);

  it("when the target is a category only the tenant has, whose child the manifests move out (previous_paths): moved, never deleted", async () => {
    // The read scope claimed only records moved away from the target's own address: the child moved out of
    // Footwear read as undeclared, and the targeted plan deleted it where the full plan moves it (issue 34's pure property).
    const r = await both(
      categories("categories:\n  - name: Apparel\n  - name: Footwear\n    children:\n      - name: Shoes\n        desc: Feet\n"),
      categories("categories:\n  - name: Apparel\n    children:\n      - name: Shoes\n        desc: Feet\n        previous_paths: [Footwear/Shoes]\n"),
      ['category["Footwear"]'],
      ["--allow-delete"],
    );
    expect(r.got.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['move category["Apparel/Shoes"]', 'delete category["Footwear"]']);
    expect(r.actions(r.got)).toEqual(r.actions(r.narrowed));
  }, 60_000);

  it("when an entry's versions are a flow mapping on the line below `versions:`", async () => {
    const r = await both(
      brands("brands:\n  - name: Foo\n    desc: old\n  - name: Bar\n"),
      brands("brands:\n  - name: Foo\n    desc: new\n  - name: Bar\n    versions:\n      {German: {desc: x}}\n"),
      ['brand["Foo"]'],
    );
    expect(r.actions(r.got)).toEqual(r.actions(r.narrowed));
    expect(r.got.version_ids).toEqual(r.narrowed.version_ids);
    expect(r.got.version_ids).toHaveProperty("German");
  }, 60_000);
});
