import { describe, expect, it } from "vitest";
import { attributes } from "../../../src/plan/kinds/attributes.js";
import { displayGroups } from "../../../src/plan/kinds/display-groups.js";
import type { RemoteAttribute } from "../../../src/model/remote.js";
import { planKinds } from "../../helpers/plan-kind.js";

const remoteColour: RemoteAttribute = {
  id: 10,
  name: "Color",
  type: "selectbox",
  display_group: "Basics",
  versions: { French: { name: "Couleur" } },
  values: [
    { id: 100, value: "Red", versions: { French: "Rouge" } },
    { id: 101, value: "Dark blue" },
    { id: 102, value: "Mauve" },
  ],
};

describe("attributes kind (with type values)", () => {
  it("renames the attribute and a value, writes versions, creates a value, follows the display group's id", () => {
    const { actions, errors } = planKinds(
      [displayGroups, attributes],
      {
        display_groups: [{ name: "Basics" }],
        attributes: [
          {
            name: "Colour",
            type: "selectbox",
            display_group: "Basics",
            previous_names: ["Color"],
            versions: { French: { name: "Couleur" } },
            values: [{ value: "Red", versions: { French: "Rouge vif" } }, { value: "Navy", previous_values: ["Dark blue"] }, { value: "Green" }],
          },
        ],
      },
      { display_groups: [{ id: 1, name: "Basics" }], attributes: [remoteColour] },
    );
    expect(errors).toEqual([]);
    expect([...actions.values()].map((a) => `${a.op} ${a.address}`)).toEqual([
      'rename attribute["Colour"]',
      'update attribute["Colour"].value["Red"].version["French"]',
      'rename attribute["Colour"].value["Navy"]',
      'create attribute["Colour"].value["Green"]',
    ]);
    expect(actions.get('attribute["Colour"].value["Red"].version["French"]')!.version_id).toBe(2);
    expect(actions.get('attribute["Colour"].value["Navy"]')!.previous).toEqual({ address: 'attribute["Colour"].value["Dark blue"]', via: "previous_values" });
  });

  it("prunes an undeclared value and an undeclared attribute, saying what they take with them", () => {
    const { actions } = planKinds(
      [attributes],
      { attributes: [{ name: "Color", type: "selectbox", values: [{ value: "Red" }, { value: "Dark blue" }] }] },
      {
        attributes: [remoteColour, { id: 11, name: "Size", type: "selectbox", values: [{ id: 110, value: "S" }] }],
        attribute_sets: [{ id: 5, name: "Apparel", attributes: ["Size"], assignment_ids: {} }],
      },
      { prune: { attributes: true, type_values: true } },
    );
    const value = actions.get('attribute["Color"].value["Mauve"]')!;
    expect([value.op, value.flags.destructive, value.notes]).toEqual(["delete", true, ["products using this value lose it"]]);
    const attr = actions.get('attribute["Size"]')!;
    expect([attr.op, attr.flags.destructive, attr.notes?.slice(1)]).toEqual([
      "delete",
      true,
      ["deletes its 1 type value", "assigned to attribute set: Apparel"],
    ]);
    expect(attr.notes?.[0]).toMatch(/^products lose their values of this \w+ attribute$/);
  });

  it("an unknown display group is an error with a suggestion", () => {
    const { errors } = planKinds(
      [displayGroups, attributes],
      { display_groups: [{ name: "Basics" }], attributes: [{ name: "A", type: "text", display_group: "Basic" }] },
      {},
    );
    expect(errors.join("\n")).toMatch(/display group "Basic" is not declared.*did you mean: "Basics"/s);
  });
});
