import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/planner.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";
import { emptyCatalogue } from "../../src/model/catalogue.js";

const outcome = () => buildPlan({ tenant: "demo", desired, remote, ledger, prune });

describe("buildPlan on a plan with every kind of action", () => {
  it("has no errors and a stable, dependency-respecting order", () => {
    const { plan, errors } = outcome();
    expect(errors.map((e) => e.format())).toEqual([]);
    const pos = new Map(plan.actions.map((a, i) => [a.address, i]));
    for (const a of plan.actions) for (const d of a.depends_on) expect(pos.get(d)!).toBeLessThan(pos.get(a.address)!);
    expect(JSON.stringify(outcome().plan)).toBe(JSON.stringify(plan));
  });

  it("turns previous_names into renames, never delete plus create", () => {
    const { plan } = outcome();
    const byAddr = new Map(plan.actions.map((a) => [a.address, a]));
    expect(byAddr.get('display_group["Basics"]')?.op).toBe("rename");
    expect(byAddr.get('attribute["Colour"]')?.op).toBe("rename");
    expect(byAddr.get('attribute["Colour"]')?.changes).toEqual([{ field: "name", before: "Color", after: "Colour" }]);
    expect(byAddr.get('attribute["Colour"].value["Navy"]')?.op).toBe("rename");
    expect(byAddr.get('category["Apparel/Shirts"]')?.op).toBe("rename");
    expect(plan.actions.some((a) => a.op === "delete" && a.address.includes("Color"))).toBe(false);
  });

  it("plans a move for a category whose parent changed, after its new parent", () => {
    const { plan } = outcome();
    const move = plan.actions.find((a) => a.address === 'category["Apparel/Shoes"]')!;
    expect(move.op).toBe("move");
    expect(move.changes[0]).toEqual({ field: "parent", before: "Footwear", after: "Apparel" });
    expect(move.refs.parent).toEqual({ id: 50 });
    const del = plan.actions.find((a) => a.address === 'category["Footwear"]')!;
    expect(del.op).toBe("delete");
    expect(del.depends_on).toContain('category["Apparel/Shoes"]');
  });

  it("flags destructive deletes and keeps renamed references stable", () => {
    const { plan } = outcome();
    const byAddr = new Map(plan.actions.map((a) => [a.address, a]));
    expect(byAddr.get('brand["Oldco"]')).toMatchObject({ op: "delete", flags: { destructive: true } });
    expect(byAddr.get('attribute["Colour"].value["Mauve"]')).toMatchObject({ op: "delete", flags: { destructive: true } });
    expect(byAddr.get('attribute["Legacy"]')).toMatchObject({ op: "delete", flags: { destructive: true } });
    // Legacy leaves the set before it is deleted; Colour (renamed Color) stays assigned.
    expect(byAddr.get('attribute["Legacy"]')!.depends_on).toContain('attribute_set["Apparel"].attribute["Legacy"]');
    expect(byAddr.has('attribute_set["Apparel"].attribute["Colour"]')).toBe(false);
    expect(byAddr.get('attribute_set["Apparel"].attribute["Material"]')!.depends_on).toEqual(['attribute["Material"]']);
  });

  it("uses the ledger for write-only values and says when it cannot know", () => {
    const { plan } = outcome();
    const byAddr = new Map(plan.actions.map((a) => [a.address, a]));
    const asset = byAddr.get('brand["Acme"].asset["https://cdn.example.com/acme.png"]')!;
    expect(asset.op).toBe("update");
    expect(asset.changes).toEqual([{ field: "alttext", before: "Acme logo", after: "Acme" }]);
    const webId = byAddr.get('brand["Acme"].web_id["Webshop"]')!;
    expect(webId.flags.write_only).toBe(true);
    expect(webId.changes[0]).toMatchObject({ field: "web_id", after: "acme-01" });
  });

  it("shows brand language versions as unsupported, not as changes", () => {
    const { plan } = outcome();
    const v = plan.actions.find((a) => a.address === 'brand["Acme"].version["French"]')!;
    expect(v.op).toBe("unsupported");
    expect(v.flags.unsupported).toBe(true);
  });

  it("reports unknown references with close names and the manifest line", () => {
    const d = structuredClone(desired);
    d.attributes[1]!.display_group = "Technicle";
    const { errors } = buildPlan({ tenant: "demo", desired: d, remote, ledger, prune });
    expect(errors.map((e) => e.format())).toEqual([
      'catalogue.yaml:16:5: display group "Technicle" is not declared in the manifests and does not exist in the tenant\n  did you mean: "Technical"?',
    ]);
  });

  it("refuses a move into the category's own subtree", () => {
    const d = { ...emptyCatalogue(), managed: ["categories" as const] };
    d.categories = [
      { path: ["B"], name: "B", previous_paths: [["A", "B"]] },
      { path: ["B", "A"], name: "A", previous_paths: [["A"]] },
    ];
    const r = {
      ...remote,
      categories: [
        { id: 1, parent_id: null, path: ["A"], name: "A", child_count: 1 },
        { id: 2, parent_id: 1, path: ["A", "B"], name: "B", child_count: 0 },
      ],
    };
    const { errors } = buildPlan({ tenant: "demo", desired: d, remote: r });
    expect(errors.map((e) => e.code)).toContain("cycle");
  });

  it("plans nothing when the tenant matches", () => {
    const { plan } = buildPlan({
      tenant: "demo",
      desired: { ...emptyCatalogue(), managed: ["blocks"], blocks: [{ slug: "s", content: "x" }] },
      remote: { ...remote, blocks: [{ id: 1, slug: "s", name: "S", content: "x", asset_count: 0 }] },
    });
    expect(plan.actions).toEqual([]);
    expect(plan.summary.create + plan.summary.update + plan.summary.delete).toBe(0);
  });
});
