/**
 * --refresh=changelog against --refresh=full: after random out-of-band changes
 * through the API, the state read through the snapshot and the feed equals a
 * full read, and so does the plan. Rounds follow each other in the same second
 * too, so the feed's repeated boundary entries are exercised.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type PimClient } from "../../src/api/client.js";
import { plan } from "../../src/workflows/index.js";
import { prng } from "../helpers/random.js";
import { repoRoot, testProject, type TestProject } from "../helpers/project.js";

let project: TestProject;
let api: PimClient;
const configFor = (url: string) =>
  [
    "dir: catalogue",
    "tenants:",
    "  demo:",
    `    base_url: ${url}`,
    "    token_env: PIMCTL_DEMO_TOKEN",
    "versions: { French: 2, German: 3 }",
    "prune: { brands: true, categories: true, attributes: true, attribute_sets: true }",
    "",
  ].join("\n");

beforeAll(async () => {
  // A cascaded delete writes one entry, for the category named: the reading where the refresh must find the rest itself.
  project = await testProject({
    config: (urls) => configFor(urls.demo!),
    emulator: { switches: { categoryDeleteWithChildren: "cascade", changelogSubtreeDeletes: "root" } },
  });
  await project.copyExamples(path.join(repoRoot, "examples/catalogue"));
  const applied = await project.cli(["apply", "--auto-approve", "--allow-delete", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  api = createClient({ tenant: "demo", baseUrl: project.emulator.tenantUrl("demo"), token: project.tokens.demo! });
});
afterAll(async () => {
  await api?.close();
  await project?.close();
});

const both = async () => {
  const opts = { cwd: project.dir, env: project.env, allowDelete: true };
  project.emulator.resetStats();
  const viaFeed = await plan({ ...opts, refresh: "changelog" });
  const feedRequests = project.emulator.stats().requests.total;
  const full = await plan({ ...opts, refresh: "full" });
  return { viaFeed, full, feedRequests };
};

/** One random change made by someone else, through the API. */
async function change(rnd: () => number, n: number): Promise<string> {
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

describe("plan --refresh=changelog", () => {
  it("starts a snapshot with a full read, then reads only what the feed does not cover", async () => {
    const first = await both();
    expect(first.viaFeed.refresh.mode).toBe("full");
    expect(first.viaFeed.refresh.fallback).toBe("no snapshot of this tenant yet");
    const second = await both();
    expect(second.viaFeed.refresh).toMatchObject({ mode: "changelog", entries: 0, rereads: 0 });
    expect(second.viaFeed.plan.actions).toEqual(second.full.plan.actions);
    // Channels, display groups, blocks and their assets, the attribute lists (master + 2 versions),
    // brand and category assets the manifests declare, and the feed: never the brand or category lists.
    const fullRequests = second.full.connection.api.stats().requests;
    expect(second.feedRequests).toBeLessThan(fullRequests);
  });

  it("after random out-of-band changes, equals a full read: state and plan (property, 40 rounds)", async () => {
    const rnd = prng(Number(process.env.PIMCTL_TEST_SEED ?? 18));
    const log: string[] = [];
    for (let round = 1; round <= 40; round++) {
      const k = 1 + Math.floor(rnd() * 3);
      for (let i = 0; i < k; i++) log.push(`round ${round}: ${await change(rnd, round * 10 + i)}`);
      const { viaFeed, full } = await both();
      const why = `after:\n${log.slice(-12).join("\n")}\nrefresh: ${JSON.stringify(viaFeed.refresh)}`;
      expect(viaFeed.refresh.mode, why).toBe("changelog");
      expect(viaFeed.remote, why).toEqual(full.remote);
      expect(viaFeed.plan.actions, why).toEqual(full.plan.actions);
    }
    if (process.env.SHOW_ROUNDS) console.log(log.join("\n"));
  }, 120_000);

  it("reads in full when the feed no longer holds the snapshot's cursor, or an entry is not understood", async () => {
    const cache = path.join(project.dir, ".pimctl", "cache");
    const [file] = (await readdir(cache)).filter((f) => f.startsWith("snapshot-"));
    const snapshotPath = path.join(cache, file!);
    const good = await readFile(snapshotPath, "utf8");
    // A cursor the feed does not hold (as when it keeps less than the snapshot's age).
    const s = JSON.parse(good);
    s.cursor = { ...s.cursor, id: 99_999_999 };
    await writeFile(snapshotPath, JSON.stringify(s));
    const gone = await plan({ cwd: project.dir, env: project.env, refresh: "changelog" });
    expect(gone.refresh.mode).toBe("full");
    expect(gone.refresh.fallback).toMatch(/no longer holds entry 99999999/);
    // The full read started a new snapshot: the next plan uses the feed again.
    expect((await plan({ cwd: project.dir, env: project.env, refresh: "changelog" })).refresh.mode).toBe("changelog");

    // An entry of a kind API v1 does not list.
    project.emulator.store("demo").changelogs.push({
      id: project.emulator.store("demo").changelogs.length + 1,
      updated_at: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      entity_id: 1,
      entity_type: "webhook" as never,
      change_type: "full",
    });
    const odd = await plan({ cwd: project.dir, env: project.env, refresh: "changelog" });
    expect(odd.refresh.mode).toBe("full");
    expect(odd.refresh.fallback).toMatch(/entity_type "webhook", which API v1 does not list/);
  });

  it("a damaged snapshot file is a full read, never an error", async () => {
    const cache = path.join(project.dir, ".pimctl", "cache");
    for (const f of await readdir(cache)) await writeFile(path.join(cache, f), "{ not json");
    const r = await plan({ cwd: project.dir, env: project.env, refresh: "changelog" });
    expect(r.refresh.mode).toBe("full");
    expect(r.refresh.fallback).toMatch(/cannot be read/);
  });
});
