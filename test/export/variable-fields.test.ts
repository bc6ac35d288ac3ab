/**
 * Variables in promotion round-trip (issue 37): `diff`, `plan` and `export` agree on which values
 * are a `${variable}`. Only variable-bearing fields hold one (a channel name as a `web_ids` key, an
 * asset's `image_url`): a brand whose desc is "Webshop" and a category named "Webshop" are text,
 * not the channel variable whose staging value they happen to equal.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promotionProject, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";
import { updateBrand } from "../../src/emulator/kinds/brands.js";

const extra = ["  - name: Beta", "    desc: Webshop", '    web_ids: { "${shop_channel}": beta }', ""].join("\n");

let p: TestProject;
beforeAll(async () => {
  // prod's channels publish French as 7, which the example's config maps; "Webshop EU" is prod's shop channel.
  p = await promotionProject();
  const file = path.join("catalogue", "catalogue.yaml");
  const text = readFileSync(path.join(p.dir, file), "utf8").replace(
    "categories:\n",
    `${extra}categories:\n  - name: Gamma\n    children:\n      - name: Webshop\n        desc: Webshop\n`,
  );
  await p.write(file, text);
  for (const t of ["staging", "prod"]) {
    const a = await p.cli(["apply", "--tenant", t, "--auto-approve"]);
    expect(a.code, a.stderr).toBe(0);
  }
});
afterAll(async () => p.close());

const actions = (stdout: string) => (JSON.parse(stdout) as Plan).actions.map((a) => `${a.op} ${a.address}`);

describe("a value equal to a variable's value, outside a variable-bearing field", () => {
  it("plan --tenant prod shows no changes", async () => {
    const r = await p.cli(["plan", "--tenant", "prod", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(actions(r.stdout)).toEqual([]);
  });

  it("diff --from staging --to prod agrees: no changes (the web id channel still compares as the same channel)", async () => {
    const r = await p.cli(["diff", "--from", "staging", "--to", "prod", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(actions(r.stdout)).toEqual([]);
  });

  it("export writes it as text and the channel as the variable; the export then plans clean against prod", async () => {
    const e = await p.cli(["export", "--tenant", "staging", "--out", "from-staging"]);
    expect(e.code, e.stderr).toBe(0);
    const brands = readFileSync(path.join(p.dir, "from-staging", "brands.yaml"), "utf8");
    const categories = readFileSync(path.join(p.dir, "from-staging", "categories.yaml"), "utf8");
    expect(brands).toContain("desc: Webshop\n");
    expect(brands).toContain("${shop_channel}: beta");
    expect(brands).toContain("image_url: ${cdn}/brands/acme.png");
    expect(categories).toContain("name: Webshop\n");
    expect(categories).not.toContain("name: ${shop_channel}");
    const r = await p.cli(["plan", "--tenant", "prod", "--dir", "from-staging", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(actions(r.stdout)).toEqual([]);
  });

  it("export --merge writes a changed value equal to a variable as text", async () => {
    const staging = p.emulator.store("staging");
    const acme = [...staging.brands.values()].find((b) => b.name === "Acme")!;
    updateBrand(staging, acme.id, { desc: "Webshop" });
    const m = await p.cli(["export", "--tenant", "staging", "--out", "catalogue", "--merge"]);
    expect(m.code, m.stderr).toBe(0);
    expect(readFileSync(path.join(p.dir, "catalogue", "catalogue.yaml"), "utf8")).toContain('    desc: Webshop\n    web_ids: { "${shop_channel}": acme }');
    const r = await p.cli(["plan", "--tenant", "prod", "--format", "json"]);
    expect(actions(r.stdout)).toEqual(['update brand["Acme"]']);
  });
});
