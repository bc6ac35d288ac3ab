/** Move hints in every rendering, with the line to add; --fail-on-destructive catches the unhinted plan. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject();
  await p.write("pimctl.yaml", `${readFileSync(path.join(p.dir, "pimctl.yaml"), "utf8")}prune: { categories: true, brands: true }\n`);
  await p.write(
    "catalogue/a.yaml",
    "categories:\n  - name: Apparel\n    children: [{ name: Shoes, children: [{ name: Boots }, { name: Sneakers }] }]\n  - name: Footwear\nbrands:\n  - name: Acme Corp\n",
  );
  expect((await p.cli(["apply", "--auto-approve", "--allow-delete"])).code).toBe(0);
  // The move and the rename, written without previous_paths / previous_names.
  await p.write(
    "catalogue/a.yaml",
    "categories:\n  - name: Apparel\n  - name: Footwear\n    children: [{ name: Shoes, children: [{ name: Boots }, { name: Sneakers }] }]\nbrands:\n  - name: Acme Corp.\n",
  );
});
afterAll(async () => p.close());

describe("move hints", () => {
  const category = 'category["Apparel/Shoes"] -> category["Footwear/Shoes"]: same name elsewhere in the tree (and 2 of the same children)';
  const categoryLine = 'previous_paths: [["Apparel", "Shoes"]]';
  const brand = 'brand["Acme Corp"] -> brand["Acme Corp."]: a near name';

  it("text and markdown show each hint with the line to add; json carries them", async () => {
    const text = await p.cli(["plan"]);
    expect(text.stdout).toContain("Possible moves or renames (2): these deletes look like the creates beside them");
    expect(text.stdout).toContain(`${category}; to keep the record (and its id), add to category["Footwear/Shoes"]: ${categoryLine}`);
    expect(text.stdout).toContain(`${brand}; to keep the record (and its id), add to brand["Acme Corp."]: previous_names: ["Acme Corp"]`);
    expect(text.stdout).toContain("2 possible moves without a hint");
    const md = await p.cli(["plan", "--format", "markdown"]);
    expect(md.stdout).toContain("**2 possible moves or renames**");
    expect(md.stdout).toContain(categoryLine);
    const json = JSON.parse((await p.cli(["plan", "--format", "json"])).stdout) as Plan;
    expect(json.hints).toEqual([
      {
        delete: 'category["Apparel/Shoes"]',
        create: 'category["Footwear/Shoes"]',
        reason: "same name elsewhere in the tree (and 2 of the same children)",
        add: categoryLine,
      },
      { delete: 'brand["Acme Corp"]', create: 'brand["Acme Corp."]', reason: "a near name", add: 'previous_names: ["Acme Corp"]' },
    ]);
  });

  it("--fail-on-destructive stops the unhinted plan (category deletes are destructive); with the lines added there is no delete and no hint", async () => {
    const gate = await p.cli(["plan", "--fail-on-destructive"]);
    expect(gate.code).toBe(3);
    await p.write(
      "catalogue/a.yaml",
      `categories:\n  - name: Apparel\n  - name: Footwear\n    children:\n      - name: Shoes\n        ${'previous_paths: [["Apparel", "Shoes"]]'}\n        children: [{ name: Boots }, { name: Sneakers }]\nbrands:\n  - name: Acme Corp.\n    previous_names: ["Acme Corp"]\n`,
    );
    const json = JSON.parse((await p.cli(["plan", "--format", "json", "--fail-on-destructive"])).stdout) as Plan;
    expect(json.hints).toEqual([]);
    expect(json.actions.map((a) => `${a.op} ${a.address}`).sort()).toEqual(['move category["Footwear/Shoes"]', 'rename brand["Acme Corp."]']);
  });
});
