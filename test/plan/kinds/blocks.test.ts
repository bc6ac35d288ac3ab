import { describe, expect, it } from "vitest";
import { blocks } from "../../../src/plan/kinds/blocks.js";
import { planKinds } from "../../helpers/plan-kind.js";

describe("blocks kind", () => {
  it("creates and updates by slug; long content is marked for a unified diff", () => {
    const { actions } = planKinds(
      [blocks],
      {
        blocks: [
          { slug: "footer", content: "a\nb\n" },
          { slug: "new", name: "New" },
        ],
      },
      { blocks: [{ id: 1, slug: "footer", content: "a\n", asset_count: 0 }] },
    );
    const update = actions.get('block["footer"]')!;
    expect([update.op, update.changes]).toEqual(["update", [{ field: "content", before: "a\n", after: "a\nb\n", long_text: true }]]);
    expect(actions.get('block["new"]')!.op).toBe("create");
  });

  it("an undeclared block with pruning on is unsupported: API v1 answers 501", () => {
    const { actions } = planKinds([blocks], { blocks: [] }, { blocks: [{ id: 1, slug: "old", asset_count: 0 }] }, { prune: { blocks: true } });
    expect(actions.get('block["old"]')!.notes).toEqual(["API v1 cannot delete blocks (DELETE /blocks/<ID> answers 501)"]);
  });
});
