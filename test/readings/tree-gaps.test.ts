/**
 * A category whose parent is not in the read. Skipped by a page shift: its
 * parent is read by id and the tree is whole. Gone (404): the category and its
 * subtree are left out of the plan with a warning, never taken for roots, never
 * deleted, even with pruning on.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { emptyLedger } from "../../src/state/ledger.js";
import type { Catalogue } from "../../src/model/catalogue.js";
import { categoryRec as cat } from "./fixture.js";

const desired: Catalogue = {
  managed: ["categories"],
  versions: [],
  display_groups: [],
  attributes: [],
  attribute_sets: [],
  blocks: [],
  brands: [],
  categories: [{ path: ["Home"], name: "Home" }],
};
const prune = { categories: true };

let emu: Emulator | undefined;
let api: PimClient | undefined;
let other: Server | undefined;
afterEach(async () => {
  await api?.close();
  await emu?.close();
  if (other) await new Promise((r) => other!.close(r));
  emu = api = other = undefined;
});

describe("categories whose parent is missing from the read", () => {
  it("a parent deleted meanwhile (404): the subtree is left out with a warning and nothing in it is deleted", async () => {
    // "Lost" names parent 99, which does not exist (deleted while the tree was read).
    emu = await startEmulator({
      port: 0,
      tenants: [{ hash: "t", token: "tok" }],
      seed: { tenants: { t: { categories: [cat(1, null, "Home"), cat(10, 99, "Lost"), cat(11, 10, "Deeper")] } } },
    });
    api = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "tok" });
    const remote = await readState(api, { kinds: ["categories"], desired, prune });
    expect(remote.categories.map((c) => c.path)).toEqual([["Home"]]);
    expect(remote.orphan_categories).toEqual([{ id: 10, name: "Lost", parent_id: 99, reason: "its parent 99 answers 404 (deleted while the tree was read)" }]);
    const { plan } = buildPlan({ tenant: "t", desired, remote, ledger: emptyLedger("t", emu.tenantUrl("t")), prune });
    expect(plan.actions).toEqual([]); // not deleted as an undeclared root, not touched at all
    expect(plan.warnings.join("\n")).toMatch(/"Lost" \(id 10\) and its subtree are left alone this run: its parent 99 answers 404/);
  });

  it("a parent skipped by a page shift is read by id: the child keeps its place", async () => {
    // A tenant whose list omits "Shoes" (id 2) although "Running" (id 3) names it as parent.
    const records = [
      { id: 1, parent_id: null, name: "Home" },
      { id: 3, parent_id: 2, name: "Running" },
    ];
    other = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/api/v1/channels") return res.end(JSON.stringify({ channels: [] }));
      if (url.pathname === "/api/v1/attribute_sets") return res.end(JSON.stringify({ attribute_sets: [] }));
      if (url.pathname === "/api/v1/categories/2") return res.end(JSON.stringify({ category: { id: 2, parent_id: 1, name: "Shoes" } }));
      if (url.pathname === "/api/v1/categories")
        return res.end(JSON.stringify({ categories: records, links: { next: null }, meta: { current_page: 1, last_page: 1, per_page: 1000, total: 2 } }));
      res.statusCode = 404;
      res.end("{}");
    });
    await new Promise<void>((r) => other!.listen(0, "127.0.0.1", r));
    api = createClient({ tenant: "x", baseUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v1`, token: "t" });
    const remote = await readState(api, { kinds: ["categories"], desired, prune });
    expect(remote.categories.map((c) => c.path)).toEqual([["Home"], ["Home", "Shoes"], ["Home", "Shoes", "Running"]]);
    const { plan } = buildPlan({ tenant: "x", desired, remote, ledger: emptyLedger("x", "http://x"), prune });
    // Both are undeclared and pruned, children first; "Running" is never a root of its own.
    expect(plan.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['delete category["Home/Shoes/Running"]', 'delete category["Home/Shoes"]']);
  });
});
