/** --target / --exclude: typos, unknown kinds and addresses that match nothing are errors; globs select. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { parseSelector } from "../../src/plan/selectors.js";
import type { Plan } from "../../src/plan/types.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject({
    files: {
      "catalogue/a.yaml": [
        "brands:",
        "  - name: Acme",
        "  - name: North Face",
        "  - name: Northwind",
        "categories:",
        "  - name: Apparel & Accessories",
        "    children:",
        "      - name: Shirts",
        "        children: [{ name: Polos }]",
        "  - name: Home & Garden",
        "",
      ].join("\n"),
    },
  });
  createBrand(p.emulator.store("demo"), { name: "Tenant Only" });
});
afterAll(async () => p.close());

async function planned(args: string[]): Promise<string[]> {
  const r = await p.cli(["plan", "--format", "json", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Plan).actions.map((a) => a.address);
}

describe("selectors", () => {
  it("an address with a typo is an error with did-you-mean over manifest and tenant addresses (exit 1)", async () => {
    const r = await p.cli(["plan", "--target", 'brand["Acmee"]']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--target brand["Acmee"] matches nothing in the manifests or the tenant');
    expect(r.stderr).toContain('did you mean: brand["Acme"]');
    const t = await p.cli(["plan", "--exclude", 'brand["Tenant Onyl"]']);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain('did you mean: brand["Tenant Only"]');
    // Without quotes: the same kind of error, never an internal one.
    for (const unquoted of ["brand[Acme]", "brand[]"]) {
      const u = await p.cli(["plan", "--target", unquoted]);
      expect(u.code, unquoted).toBe(1);
      expect(u.stderr).not.toContain("internal error");
      expect(u.stderr).toContain(`--target ${unquoted}`);
    }
  });

  it("an unknown kind is an error naming the close kind; all problems are reported at once", async () => {
    const r = await p.cli(["plan", "--exclude", "brnds", "--target", 'categry["Apparel"]']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"brnds" is neither a kind nor an address: unknown kind "brnds"');
    expect(r.stderr).toContain("did you mean: brands");
    expect(r.stderr).toContain('unknown kind "categry"');
    expect(r.stderr).toContain("2 errors");
  });

  it("a typo'd kind suggests only what the flags accept: the kind, or the address form", async () => {
    const r = await p.cli(["plan", "--exclude", "categry", "--target", 'categry["Apparel"]']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"categry" is neither a kind nor an address: unknown kind "categry"\n  did you mean: categories?');
    expect(r.stderr).toContain('unknown kind "categry"\n  did you mean: category["Apparel"]?');
    // Every suggestion is accepted as written.
    const ok = await p.cli(["plan", "--exclude", "categories", "--target", 'category["Apparel & Accessories"]']);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it("a record only the tenant has is a valid selector", async () => {
    const r = await p.cli(["plan", "--exclude", 'brand["Tenant Only"]']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('globs: brand["North*"] and category["Apparel & Accessories/**"]', async () => {
    expect(await planned(["--target", 'brand["North*"]'])).toEqual(['brand["North Face"]', 'brand["Northwind"]']);
    expect(await planned(["--target", 'category["Apparel & Accessories/**"]'])).toEqual([
      'category["Apparel & Accessories"]',
      'category["Apparel & Accessories/Shirts"]',
      'category["Apparel & Accessories/Shirts/Polos"]',
    ]);
    expect(await planned(["--exclude", "categories", "--exclude", 'brand["North*"]'])).toEqual(['brand["Acme"]']);
  });

  it("glob semantics: * stays within a segment, ** crosses segments and includes the parent", () => {
    const one = parseSelector('category["Apparel/*"]');
    expect(one.matches('category["Apparel/Shirts"]')).toBe(true);
    expect(one.matches('category["Apparel/Shirts/Polos"]')).toBe(false);
    expect(one.matches('category["Apparel"]')).toBe(false);
    const all = parseSelector('category["Apparel/**"]');
    expect(all.matches('category["Apparel"]')).toBe(true);
    expect(all.matches('category["Apparel/Shirts/Polos"].version["French"]')).toBe(true);
    expect(all.matches('category["Apparel Extra"]')).toBe(false);
    expect(parseSelector('brand["A.c"]').matches('brand["Abc"]')).toBe(false);
  });
});
