import { describe, expect, it } from "vitest";
import { attributeSets } from "../../../src/plan/kinds/attribute-sets.js";
import { attributes } from "../../../src/plan/kinds/attributes.js";
import { planKinds } from "../../helpers/plan-kind.js";

describe("attribute sets kind", () => {
  it("assigns missing attributes and removes left-out ones by the assignment's id, reading renamed attributes by today's name", () => {
    const { actions, errors } = planKinds(
      [attributes, attributeSets],
      {
        attributes: [
          { name: "Colour", type: "text", previous_names: ["Color"] },
          { name: "Size", type: "text" },
        ],
        attribute_sets: [{ name: "Apparel", attributes: ["Colour", "Size"] }],
      },
      {
        attributes: [
          { id: 10, name: "Color", type: "text", values: [] },
          { id: 11, name: "Size", type: "text", values: [] },
          { id: 12, name: "Fit", type: "text", values: [] },
        ],
        attribute_sets: [{ id: 5, name: "Apparel", attributes: ["Color", "Fit"], assignment_ids: { Color: 500, Fit: 501 } }],
      },
    );
    expect(errors).toEqual([]);
    const add = actions.get('attribute_set["Apparel"].attribute["Size"]')!;
    expect([add.op, add.refs]).toEqual(["create", { attribute_set: { id: 5 }, attribute: { id: 11 } }]);
    const remove = actions.get('attribute_set["Apparel"].attribute["Fit"]')!;
    expect([remove.op, remove.refs.self]).toEqual(["delete", { id: 501 }]);
    expect(actions.has('attribute_set["Apparel"].attribute["Colour"]')).toBe(false);
  });

  it("a new set's assignments depend on the set's create; a pruned set says who uses it", () => {
    const { actions } = planKinds(
      [attributes, attributeSets],
      { attributes: [{ name: "Size", type: "text" }], attribute_sets: [{ name: "Shoes", attributes: ["Size"] }] },
      {
        attributes: [{ id: 11, name: "Size", type: "text", values: [] }],
        attribute_sets: [{ id: 6, name: "Old", attributes: ["Size"], assignment_ids: {} }],
        categories: [{ id: 1, name: "A", path: ["A"], parent_id: null, child_count: 0, attribute_sets: ["Old"] }],
      },
      { prune: { attribute_sets: true } },
    );
    expect(actions.get('attribute_set["Shoes"].attribute["Size"]')!.depends_on).toEqual(['attribute_set["Shoes"]']);
    expect(actions.get('attribute_set["Old"]')!.notes).toEqual([
      "products and categories using this set lose the attributes it brings",
      "holds 1 attribute assignment",
      "used by 1 category",
    ]);
  });
});
