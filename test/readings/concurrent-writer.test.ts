/**
 * Another client writes while pimctl reads a large paged list: it deletes
 * categories early in the order (pages shift back) and creates new ones (the
 * total stays put). pimctl must read a consistent set or refuse to plan deletes,
 * never plan deleting a category the manifest keeps, and never plan creating one
 * that existed all along.
 */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { createClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { emptyLedger } from "../../src/state/ledger.js";
import type { Catalogue, Category } from "../../src/model/catalogue.js";
import type { CategoryRec } from "../../src/emulator/store.js";
import { categoryRec as cat } from "./fixture.js";

describe("a paged read while another client writes", () => {
  it("reads a consistent set or plans no deletes; never deletes or re-creates what the manifest keeps", { timeout: 60_000 }, async () => {
    // Scratch leaves first in id order (ids 2..401 under "Scratch", id 1), then 60 kept roots with 20 children each.
    const records: CategoryRec[] = [cat(1, null, "Scratch")];
    for (let i = 0; i < 400; i++) records.push(cat(2 + i, 1, `s${i}`));
    const desired: Category[] = [{ path: ["Scratch"], name: "Scratch" }];
    let id = 1000;
    for (let r = 0; r < 60; r++) {
      const root = id++;
      records.push(cat(root, null, `Kept ${r}`));
      desired.push({ path: [`Kept ${r}`], name: `Kept ${r}` });
      for (let c = 0; c < 20; c++) {
        records.push(cat(id++, root, `Child ${c}`));
        desired.push({ path: [`Kept ${r}`, `Child ${c}`], name: `Child ${c}` });
      }
    }
    const keptAddresses = new Set(desired.map((d) => `category["${d.path.join("/")}"]`));
    const catalogue: Catalogue = {
      managed: ["categories"],
      versions: [],
      display_groups: [],
      attributes: [],
      attribute_sets: [],
      blocks: [],
      brands: [],
      categories: desired,
    };
    const emu = await startEmulator({ port: 0, tenants: [{ hash: "t", token: "tok" }], latencyMs: 2, seed: { tenants: { t: { categories: records } } } });
    const reader = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "tok", parallelism: 2, pageLimit: 50 });
    const writer = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "tok", parallelism: 2 });
    const prune = { categories: true };
    let writing = true;
    let writes = 0;
    // The other client: delete the oldest scratch leaf, create a new one, as fast as it can.
    const churn = (async () => {
      let next = 0;
      while (writing) {
        const victim = [...emu.store("t").categories.values()].find((c) => c.parent_id === 1);
        if (victim) await writer.deleteCategory(victim.id).catch(() => undefined);
        await writer.createCategory({ parent_id: 1, name: `n${next++}` });
        writes += 2;
      }
    })();
    const outcomes = { consistent: 0, refusedDeletes: 0 };
    try {
      for (let round = 0; round < 8; round++) {
        const remote = await readState(reader, { kinds: ["categories"], desired: catalogue, prune });
        const { plan } = buildPlan({ tenant: "t", desired: catalogue, remote, ledger: emptyLedger("t", emu.tenantUrl("t")), prune });
        const deletes = plan.actions.filter((a) => a.op === "delete").map((a) => a.address);
        const creates = plan.actions.filter((a) => a.op === "create").map((a) => a.address);
        expect(deletes.filter((a) => keptAddresses.has(a))).toEqual([]); // nothing the manifest keeps
        expect(creates).toEqual([]); // every kept category existed all along
        // No child is ever read as a root: every root is "Scratch" or "Kept N".
        expect(remote.categories.filter((c) => c.path.length === 1 && c.path[0] !== "Scratch" && !c.path[0]!.startsWith("Kept ")).map((c) => c.path)).toEqual(
          [],
        );
        if (remote.read_doubts?.categories) {
          outcomes.refusedDeletes++;
          expect(deletes).toEqual([]);
          expect(plan.warnings.join("\n")).toMatch(/categories: no deletes planned/);
        } else outcomes.consistent++;
      }
    } finally {
      writing = false;
      await churn;
      await reader.close();
      await writer.close();
      await emu.close();
    }
    expect(writes).toBeGreaterThan(20); // the writer really wrote during the reads
    expect(outcomes.consistent + outcomes.refusedDeletes).toBe(8);
    console.log(`concurrent writer: ${writes} writes; ${outcomes.consistent} consistent reads, ${outcomes.refusedDeletes} reads that refused deletes`);
  });
});
