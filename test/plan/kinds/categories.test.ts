import { describe, expect, it } from "vitest";
import { categories } from "../../../src/plan/kinds/categories.js";
import type { RemoteCategory } from "../../../src/model/remote.js";
import { planKinds } from "../../helpers/plan-kind.js";

const cat = (id: number, parent_id: number | null, path: string[], child_count = 0): RemoteCategory => ({
  id,
  parent_id,
  path,
  name: path.at(-1)!,
  child_count,
});

describe("categories kind", () => {
  const remote = {
    categories: [cat(1, null, ["Apparel"], 1), cat(2, 1, ["Apparel", "Tops"]), cat(3, null, ["Footwear"], 1), cat(4, 3, ["Footwear", "Shoes"])],
  };

  it("renames within a parent, moves through previous_paths, creates under a new parent", () => {
    const { actions, errors } = planKinds(
      [categories],
      {
        categories: [
          { path: ["Apparel"], name: "Apparel" },
          { path: ["Apparel", "Shirts"], name: "Shirts", previous_names: ["Tops"] },
          { path: ["Apparel", "Shoes"], name: "Shoes", previous_paths: [["Footwear", "Shoes"]] },
          { path: ["Garden"], name: "Garden" },
          { path: ["Garden", "Tools"], name: "Tools" },
        ],
      },
      remote,
      { prune: { categories: true } },
    );
    expect(errors).toEqual([]);
    const move = actions.get('category["Apparel/Shoes"]')!;
    expect([move.op, move.changes[0], move.previous]).toEqual([
      "move",
      { field: "parent", before: "Footwear", after: "Apparel" },
      { address: 'category["Footwear/Shoes"]', via: "previous_paths" },
    ]);
    expect(actions.get('category["Apparel/Shirts"]')!.op).toBe("rename");
    expect(actions.get('category["Garden/Tools"]')!.refs.parent).toEqual({ address: 'category["Garden"]' });
    // The old parent is deleted only after its kept child has moved out.
    expect(actions.get('category["Footwear"]')!.depends_on).toEqual(['category["Apparel/Shoes"]']);
  });

  it("refuses a move into the category's own subtree", () => {
    const cyclic = planKinds(
      [categories],
      {
        categories: [
          { path: ["Shoes"], name: "Shoes", previous_paths: [["Footwear", "Shoes"]] },
          { path: ["Shoes", "Footwear"], name: "Footwear", previous_paths: [["Footwear"]] },
        ],
      },
      { categories: [cat(3, null, ["Footwear"], 1), cat(4, 3, ["Footwear", "Shoes"])] },
    );
    expect(cyclic.errors.join("\n")).toMatch(/cannot move into its own subtree/);
  });
});
