/**
 * DELETE /attribute_sets/<SET>/attributes/<ID>: the attribute's id or the
 * assignment's? With per-table ids the two collide, so a wrong guess removes
 * another assignment. pimctl must remove exactly the one it means under both
 * readings, say which reading it learned, and refuse when no id is safe.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import type { TenantData } from "../../src/emulator/store.js";
import { setAssignments } from "../../src/emulator/kinds/attribute-sets.js";

const t0 = "2026-01-01T00:00:00Z";
const attr = (id: number, name: string) => ({
  id,
  name,
  type: "text",
  slug: name.toLowerCase(),
  note: null,
  length: null,
  display_group_id: null,
  sort_order: 0,
  publish: false,
  versions: {},
  created_at: t0,
  updated_at: t0,
});
const row = (id: number, attribute_id: number) => ({ id, attribute_id, attribute_set_id: 1, sort_order: 0, created_at: t0, updated_at: t0 });

let emu: Emulator | undefined;
let api: PimClient | undefined;
afterEach(async () => {
  await api?.close();
  await emu?.close();
});

async function setup(reading: "attribute" | "assignment", assignments: TenantData["assignments"]) {
  emu = await startEmulator({
    port: 0,
    tenants: [{ hash: "t", token: "tok" }],
    switches: { setAttributeDeleteId: reading },
    seed: { tenants: { t: { attributes: [attr(1, "A1"), attr(2, "A2"), attr(3, "A3")], attributeSets: [{ id: 1, name: "S", sort_order: 0 }], assignments } } },
  });
  const log: string[] = [];
  api = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "tok", logHttp: (l) => log.push(l) });
  const left = () =>
    setAssignments(emu!.store("t"), 1)
      .map((a) => a.attribute_id)
      .sort();
  return { log, left };
}

describe("removing an attribute from a set under both readings of the path id", () => {
  for (const reading of ["attribute", "assignment"] as const) {
    it(`${reading} reading: the attribute id is harmless (no row has it): removes only that assignment and learns the reading`, async () => {
      // Remove A2 (row 5); row 6 holds A1. No row has id 2; attribute 5 is in no row.
      const { log, left } = await setup(reading, [row(5, 2), row(6, 1)]);
      await api!.removeAttributeFromSet(1, { assignmentId: 5, attributeId: 2 });
      expect(left()).toEqual([1]);
      expect(api!.setAttributeDeleteId).toBe(reading);
      expect(log.some((l) => l.includes(`takes the ${reading} id`))).toBe(true);
    });

    it(`${reading} reading: ids collide across the two tables: never removes the other assignment`, async () => {
      // Remove A2, whose row id is 1. Row 2 holds A3: sending "2" under the assignment reading
      // would remove A3's row; sending "1" under the attribute reading finds no A1 in the set (harmless).
      const { left } = await setup(reading, [row(1, 2), row(2, 3)]);
      await api!.removeAttributeFromSet(1, { assignmentId: 1, attributeId: 2 });
      expect(left()).toEqual([3]);
      expect(api!.setAttributeDeleteId).toBe(reading);
    });

    it(`${reading} reading: when each id names another assignment under the other reading, refuses and deletes nothing`, async () => {
      // Remove A2 (row 1). Row 2 holds A1: "2" is row 2 (assignment reading), "1" is A1 (attribute reading).
      const { left } = await setup(reading, [row(1, 2), row(2, 1)]);
      await expect(api!.removeAttributeFromSet(1, { assignmentId: 1, attributeId: 2 })).rejects.toMatchObject({
        code: "plan_refused",
        message: expect.stringMatching(/cannot remove attribute 2 from attribute set 1 safely/),
      });
      expect(left()).toEqual([1, 2]);
    });

    it(`${reading} reading: once learned, the refused case is done right`, async () => {
      const { left } = await setup(reading, [row(1, 2), row(2, 1), row(7, 3)]);
      await api!.removeAttributeFromSet(1, { assignmentId: 7, attributeId: 3 }); // harmless: learns the reading
      await api!.removeAttributeFromSet(1, { assignmentId: 1, attributeId: 2 });
      expect(left()).toEqual([1]);
    });
  }

  it("an assignment already gone is success (a retried delete)", async () => {
    const { left } = await setup("assignment", [row(6, 1)]);
    await api!.removeAttributeFromSet(1, { assignmentId: 5, attributeId: 2 });
    expect(left()).toEqual([1]);
  });
});
