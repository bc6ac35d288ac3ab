/**
 * Random changes made by someone else, through the API, for the changelog refresh's property
 * tests (changelog-refresh.test.ts, changelog-readings.test.ts): every kind of record the feed
 * covers, renamed, moved, edited, created and deleted.
 */
import type { PimApi } from "../../src/api/types.js";

/** One random change made by someone else, through the API; says which (and when the tenant refused it). */
export async function handChange(api: PimApi, rnd: () => number, n: number): Promise<string> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const [brands, categories, attributes, sets, groups] = await Promise.all([
    api.listBrands(),
    api.listCategories(),
    api.listAttributes(),
    api.listAttributeSets(),
    api.listDisplayGroups(),
  ]);
  const leaves = categories.filter((c) => !categories.some((d) => d.parent_id === c.id));
  const ops: Array<[string, () => Promise<unknown>]> = [
    ["brand desc", () => api.updateBrand(pick(brands).id, { desc: `Changed ${n}` })],
    ["brand rename", () => api.updateBrand(pick(brands).id, { name: `Renamed brand ${n}` })],
    ["brand create", () => api.createBrand({ name: `New brand ${n}`, desc: "made by hand" })],
    ["brand delete", () => api.deleteBrand(pick(brands).id)],
    ["category rename", () => api.updateCategory(pick(categories).id, { name: `Renamed category ${n}` })],
    ["category desc", () => api.updateCategory(pick(categories).id, { desc: `Text ${n}` })],
    ["category create", () => api.createCategory({ parent_id: pick(categories).id, name: `New category ${n}` })],
    ["category delete (leaf)", () => api.deleteCategory(pick(leaves).id)],
    ["category delete (subtree)", () => api.deleteCategory(pick(categories.filter((c) => !leaves.includes(c))).id)],
    [
      "category move",
      async () => {
        const c = pick(leaves);
        const to = pick(categories.filter((p) => p.id !== c.id));
        await api.updateCategory(c.id, { parent_id: to.id, name: `Moved ${n}` });
      },
    ],
    ["attribute rename", () => api.updateAttribute(pick(attributes).id, { name: `Renamed attribute ${n}` })],
    ["attribute note", () => api.updateAttribute(pick(attributes).id, { note: `Note ${n}` })],
    ["attribute version name", () => api.updateAttributeVersion(pick(attributes).id, 2, { name: `Nom ${n}` })],
    [
      "type value",
      async () => {
        const a = pick(attributes.filter((x) => (x.typeValuesArray ?? []).length));
        const tv = pick(a.typeValuesArray!);
        await (rnd() < 0.5 ? api.updateTypeValue(a.id, tv.id, { value: `Value ${n}` }) : api.createTypeValue(a.id, { value: `Added ${n}` }));
      },
    ],
    ["attribute delete", () => api.deleteAttribute(pick(attributes).id)],
    [
      "brand attribute value",
      async () => {
        const b = pick(brands);
        const values = await api.listBrandAttributes(b.id);
        const v = values.length ? pick(values) : undefined;
        const first = v?.values[0];
        if (v && first)
          await api.updateBrandAttributeValue(b.id, v.attribute_id, first.id, {
            attribute_id: v.attribute_id,
            version_id: first.version_id,
            values: [{ value: `Brand value ${n}` }],
          });
        else await api.createBrandAttribute(b.id, { attribute_id: pick(attributes).id, version_id: 0, values: [{ value: `Brand value ${n}` }] });
      },
    ],
    ["set rename", () => api.updateAttributeSet(pick(sets).id, { name: `Renamed set ${n}` })],
    [
      "set assignment",
      async () => {
        const s = pick(sets);
        const assigned = await api.listAttributeSetAttributes(s.id);
        const a = assigned.length && rnd() < 0.5 ? pick(assigned) : undefined;
        if (a) await api.removeAttributeFromSet(s.id, { assignmentId: a.id, attributeId: a.attribute_id });
        else await api.addAttributeToSet(s.id, pick(attributes.filter((x) => !assigned.some((y) => y.attribute_id === x.id))).id);
      },
    ],
    ["set delete", () => api.deleteAttributeSet(pick(sets).id)],
    ["display group rename", () => api.updateDisplayGroup(pick(groups).id, { name: `Group ${n}` })],
  ];
  const [label, op] = pick(ops);
  try {
    await op();
  } catch (e) {
    // A pick the tenant refuses (no leaf left, a name taken) changes nothing: still a valid round.
    return `${label} (refused: ${(e as Error).message.slice(0, 60)})`;
  }
  return label;
}
