/**
 * Targets narrow the read (src/plan/read-scope.ts) and the read overlaps the
 * manifests' loading (src/state/index.ts startReads): a targeted plan costs the
 * same in a tenant of any size and equals the full plan narrowed; the
 * overlapped read gives the same state in at most 3 rounds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { readFile, writeFile } from "node:fs/promises";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";
import { plan } from "../../src/workflows/index.js";
import { finalisePlan } from "../../src/plan/finalise.js";
import { canonicalJson } from "../../src/plan/canonical-json.js";
import { createClient } from "../../src/api/client.js";
import { readState, startReads } from "../../src/state/index.js";
import type { Plan } from "../../src/plan/types.js";
import { assignToSet, attributeSetByName } from "../../src/emulator/kinds/attribute-sets.js";
import { attributeByName, createAttribute, updateAttribute } from "../../src/emulator/kinds/attributes.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";
import { createCategory, deleteCategory, updateCategory } from "../../src/emulator/kinds/categories.js";

const config = (url: string, extra = "") =>
  `dir: catalogue\nversions: { French: 2, German: 3 }\ntenants:\n  demo:\n    base_url: ${url}\n    token_env: PIMCTL_DEMO_TOKEN\n${extra}`;

const brandsYaml = (names: string[]) => `brands:\n${names.map((n) => `  - name: ${n}\n    desc: ${n} desc\n`).join("")}`;

describe("a targeted plan reads only its targets", () => {
  const targets = ["Alpha", "Bravo", "Charlie"];
  const requestsFor = async (tenantBrands: number): Promise<number> => {
    const p = await testProject({ config: (u) => config(u.demo!), files: { "catalogue/brands.yaml": brandsYaml([...targets, "Delta", "Echo", "Foxtrot"]) } });
    try {
      p.emulator.store("demo").seedBrands(tenantBrands);
      for (const n of ["Alpha", "Bravo", "Delta"]) createBrand(p.emulator.store("demo"), { name: n });
      p.emulator.resetStats();
      const r = await p.cli(["plan", ...targets.flatMap((t) => ["--target", `brand["${t}"]`]), "--format", "json"]);
      expect(r.code, r.stderr).toBe(0);
      const actions = (JSON.parse(r.stdout) as Plan).actions.map((a) => `${a.op} ${a.address}`);
      expect(actions).toEqual(['update brand["Alpha"]', 'update brand["Bravo"]', 'create brand["Charlie"]']);
      return p.emulator.stats().requests.total;
    } finally {
      await p.close();
    }
  };
  it("3 brands cost the same in a tenant of 1,000 brands and of 20,000, and at most 6 requests", async () => {
    const small = await requestsFor(1_000);
    const large = await requestsFor(20_000);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(6);
  }, 60_000);
});

describe("attribute and category targets are read by the ledger's ids", () => {
  it("cost the same in a tenant with 3,000 more categories and attributes, and list neither kind", async () => {
    const p = await testProject({ config: (u) => config(u.demo!) });
    try {
      await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
      const applied = await p.cli(["apply", "--auto-approve"]);
      expect(applied.code, applied.stderr).toBe(0);
      const reads = async (target: string, lists: RegExp) => {
        p.emulator.resetStats();
        const r = await p.cli(["plan", "--target", target, "--detailed-exitcode"]);
        expect(r.code, r.stderr).toBe(0);
        const routes = Object.keys(p.emulator.stats().requests.byRoute);
        expect(routes.filter((r) => lists.test(r))).toEqual([]);
        return p.emulator.stats().requests.total;
      };
      // Not the attribute lists (one per language version; a category's set members still need them), nor the category pages.
      const both = async () => [
        await reads('attribute["Activewear clothing features"]', /^GET \/attributes(\/version\/[^/]+)?$/),
        await reads('category["Apparel & Accessories/Jewelry/Anklets"]', /^GET \/categories$/),
      ];
      const small = await both();
      const store = p.emulator.store("demo");
      for (let i = 0; i < 3_000; i++) {
        createCategory(store, { parent_id: null, name: `Extra ${i}` });
        createAttribute(store, { name: `Extra ${i}`, type: "text" });
      }
      const large = await both();
      expect(large).toEqual(small);
      // The attribute: channels, display groups, itself in 3 versions. The category: channels, display groups, sets, its
      // path (3), its set's members (1) and their 7 attributes in 3 versions each.
      expect(large).toEqual([5, 28]);
    } finally {
      await p.close();
    }
  }, 60_000);
});

/** The id of the one category of this name in the store. */
function categoryId(store: { categories: Map<number, { id: number; name: string }> }, name: string): number {
  const found = [...store.categories.values()].filter((c) => c.name === name);
  expect(found).toHaveLength(1);
  return found[0]!.id;
}

/** What checkSavedPlan compares: actions (whole) and fingerprints; and the counts. */
function comparable(p: Plan) {
  const { unmanaged: _u, ...summary } = p.summary;
  return { actions: p.actions.map((a) => canonicalJson(a)), fingerprints: p.fingerprints, summary };
}

describe("a targeted plan equals the full plan narrowed", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject({ config: (u) => config(u.demo!, "prune: { brands: true, categories: true, type_values: true }\n") });
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
    const applied = await p.cli(["apply", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    // Drift on every kind the cases touch: manifest edits, and records only the tenant has.
    const edit = async (file: string, f: (t: string) => string) => {
      const at = path.join(p.dir, "catalogue", file);
      await writeFile(at, f(await readFile(at, "utf8")));
    };
    await edit("brands.yaml", (t) =>
      t.replace("Cameras and lenses for the mountains since 1972.", "Cameras and lenses since 1972.").replace("German: Schwarz", "German: Tiefschwarz"),
    );
    await edit("attributes.yaml", (t) => t.replace("German: Verstellbarer Bund", "German: Verstellbarer Hosenbund"));
    await edit("categories.yaml", (t) =>
      t
        .replace("          - name: Activewear\n", "          - name: Activewear\n          - name: Outerwear\n")
        .replace("          - name: Boots\n", "")
        .replace("          - name: Anklets\n", "          - name: Anklets\n            desc: Ankle chains\n"),
    );
    const store = p.emulator.store("demo");
    createBrand(store, { name: "Stray" });
    createBrand(store, { name: "Zzz Other" });
  }, 60_000);
  afterAll(() => p.close());

  const byHand = (f: (store: ReturnType<TestProject["emulator"]["store"]>) => void) => () => f(p.emulator.store("demo"));
  const cases: Array<{ name: string; targets?: string[]; excludes?: string[]; read?: RegExp; before?: () => void }> = [
    { name: "a brand (and the attribute its values need)", targets: ['brand["Alpine Optics"]'] },
    { name: "a brand only the tenant has (pruned: a delete)", targets: ['brand["Stray"]'] },
    { name: "an attribute value", targets: ['attribute["Activewear clothing features"].value["Adjustable waistband"]'] },
    { name: "a category subtree", targets: ['category["Apparel & Accessories/**"]'] },
    { name: "a whole kind", targets: ["brands"] },
    { name: "an exclude", excludes: ['brand["Alpine Optics"]', "blocks"] },
    { name: "a target and an exclude", targets: ["brands"], excludes: ['brand["Stray"]'] },
    { name: "an attribute, read by the ledger's id", targets: ['attribute["Activewear clothing features"]'], read: /attributes: by id/ },
    { name: "a category, read by the ledger's ids", targets: ['category["Apparel & Accessories/Jewelry/Anklets"]'], read: /categories: by id/ },
    {
      name: "a set with an attribute assigned by hand (read by id too, to be unassigned)",
      targets: ['attribute_set["Jewelry"]'],
      read: /attributes: 1 more by id/,
      before: byHand((s) => void assignToSet(s, attributeSetByName(s, "Jewelry")!.id, attributeByName(s, "Closure type")!.id)),
    },
    // Renamed out of band: the ledger's ids no longer check out, and the lists are read (last: they change the tenant).
    {
      name: "an attribute renamed by hand (its id does not check out: listed, renamed back)",
      targets: ['attribute["Activewear clothing features"]'],
      read: /attributes: list \(the ledger's ids did not check out\)/,
      before: byHand((s) => updateAttribute(s, attributeByName(s, "Activewear clothing features")!.id, { name: "Renamed by hand" })),
    },
    {
      name: "a category deleted by hand (its id answers 404: listed, created again)",
      targets: ['category["Apparel & Accessories/Jewelry/Brooches & Lapel Pins"]'],
      read: /categories: list \(the ledger's ids did not check out\)/,
      before: byHand((s) => void deleteCategory(s, categoryId(s, "Brooches & Lapel Pins"), false)),
    },
    {
      name: "a category renamed by hand (its path does not check out: listed)",
      targets: ['category["Apparel & Accessories/Jewelry/Anklets"]'],
      read: /categories: list \(the ledger's ids did not check out\)/,
      before: byHand((s) => updateCategory(s, categoryId(s, "Anklets"), { name: "Ankle Chains" })),
    },
    {
      name: "a category whose parent moved by hand (the path walked up by parent ids does not check out: listed)",
      targets: ['category["Apparel & Accessories/Shoes/Sandals"]'],
      read: /categories: list \(the ledger's ids did not check out\)/,
      before: byHand((s) => updateCategory(s, categoryId(s, "Shoes"), { parent_id: categoryId(s, "Clothing") })),
    },
  ];
  for (const c of cases) {
    it(
      c.name,
      async () => {
        c.before?.();
        const opts = { cwd: p.dir, env: p.env };
        const whole = await plan(opts);
        p.emulator.resetStats();
        const logged: string[] = [];
        const targeted = (
          await plan({ ...opts, log: (l) => logged.push(l), ...(c.targets ? { targets: c.targets } : {}), ...(c.excludes ? { excludes: c.excludes } : {}) })
        ).plan;
        if (c.read) expect(logged.join("\n")).toMatch(c.read);
        // The full plan narrowed by the one pure step every plan goes through (src/plan/finalise.ts).
        const narrowedFull = finalisePlan(whole.plan, whole, {
          scope: whole.config.scope,
          prune: whole.config.prune,
          targets: c.targets ?? [],
          excludes: c.excludes ?? [],
          allowDelete: false,
        });
        expect(targeted.actions.length).toBeGreaterThan(0);
        expect(comparable(targeted)).toEqual(comparable(narrowedFull));
        // And a saved targeted plan is accepted: its basis re-plans to the same actions.
        await writeFile(path.join(p.dir, "t.plan.json"), "");
        const saved = await p.cli([
          "plan",
          ...(c.targets ?? []).flatMap((t) => ["--target", t]),
          ...(c.excludes ?? []).flatMap((t) => ["--exclude", t]),
          "--allow-delete",
          "--out",
          "t.plan.json",
        ]);
        expect(saved.code, saved.stderr).toBe(0);
        const dry = await p.cli(["apply", "t.plan.json", "--dry-run"]);
        expect(dry.stderr).not.toContain("plan_stale");
        expect(dry.code, dry.stderr).toBe(0);
      },
      30_000,
    );
  }
});

describe("the read overlaps", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject({ config: (u) => config(u.demo!) });
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
    const applied = await p.cli(["apply", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
  }, 60_000);
  afterAll(() => p.close());

  it("gives the same state as a read one request at a time, in at most 3 rounds", async () => {
    // Long enough that a loaded machine's delays (timers, a busy event loop) stay small beside it.
    const latency = 400;
    p.emulator.setFaults({ latencyMs: latency });
    p.emulator.resetStats();
    const answered: number[] = [];
    const t0 = Date.now();
    // Parallelism above the widest round: the rounds measured are the read's, not the client's limit.
    const result = await plan({ cwd: p.dir, env: p.env, parallelism: 64, logHttp: (l) => void (/^(GET|POST) /.test(l) && answered.push(Date.now() - t0)) });
    // A round is a burst of answers: answers more than half a latency apart start a new one (fixed buckets of one
    // latency split a burst that straddles a boundary, which a loaded machine makes likely).
    const sorted = [...answered].sort((a, b) => a - b);
    const rounds = sorted.filter((t, i) => i === 0 || t - sorted[i - 1]! > latency / 2).length;
    expect(rounds).toBeLessThanOrEqual(3);
    expect(Date.now() - t0).toBeLessThan(4 * latency + 1_000);
    const requests = p.emulator.stats().requests.total;

    p.emulator.setFaults({ latencyMs: 0 });
    p.emulator.resetStats();
    const api = createClient({ tenant: "demo", baseUrl: p.emulator.tenantUrl("demo"), token: p.tokens.demo!, parallelism: 1 });
    try {
      const serial = await readState(api, { kinds: result.desired.managed, desired: result.desired, versionMap: { French: 2, German: 3 }, prune: {} });
      expect(result.remote).toEqual(serial);
      expect(p.emulator.stats().requests.total).toBe(requests);
    } finally {
      await api.close();
    }
  }, 30_000);
});

describe("a large catalogue's attribute lists, one at a time", () => {
  it("asks for each version's list once the previous list has arrived, and reads the same state as asking for them together", async () => {
    const p = await testProject({ config: (u) => config(u.demo!) });
    try {
      await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
      const applied = await p.cli(["apply", "--auto-approve"]);
      expect(applied.code, applied.stderr).toBe(0);
      const { desired } = await plan({ cwd: p.dir, env: p.env });
      // Long enough that a loaded machine's delays (timers, a busy event loop) stay small beside it.
      const latency = 400;
      p.emulator.setFaults({ latencyMs: latency });
      const read = async (oneAtATime: boolean) => {
        const answered = new Map<string, number>();
        const t0 = Date.now();
        const api = createClient({
          tenant: "demo",
          baseUrl: p.emulator.tenantUrl("demo"),
          token: p.tokens.demo!,
          parallelism: 16,
          logHttp: (l) => void (/^GET \/attributes(\/version\/\d+)? /.test(l) && answered.set(l.split(" ")[1]!, Date.now() - t0)),
        });
        try {
          const started = startReads(api, desired.managed, { oneAttributeListAtATime: oneAtATime });
          const state = await readState(api, { kinds: desired.managed, desired, versionMap: { French: 2, German: 3 }, prune: {}, started });
          return { state, answered: ["/attributes", "/attributes/version/2", "/attributes/version/3"].map((k) => answered.get(k)!) };
        } finally {
          await api.close();
        }
      };
      const together = await read(false);
      const oneByOne = await read(true);
      expect(oneByOne.state).toEqual(together.state);
      const [master, french, german] = oneByOne.answered as [number, number, number];
      // Each list is asked for once the one before it has arrived: about a round trip apart (the emulator's hold
      // corrects for late timers, so a loaded machine can see a hold shorter than the latency), where lists asked
      // for together arrive together.
      expect(french - master).toBeGreaterThanOrEqual(latency / 2);
      expect(german - french).toBeGreaterThanOrEqual(latency / 2);
      const spread = Math.max(...together.answered) - Math.min(...together.answered);
      expect(spread).toBeLessThan(latency);
    } finally {
      await p.close();
    }
  }, 60_000);
});

describe("max_deletes as a percentage counts the tenant's brands, targeted or not", () => {
  it("a targeted delete of 1 brand in 20 is 5 %, not 1 of the 1 brand a search would find", async () => {
    const p = await testProject({
      config: (u) => config(u.demo!, 'prune: { brands: true }\nmax_deletes: "10%"\n'),
      files: { "catalogue/brands.yaml": brandsYaml(["Alpha"]) },
    });
    try {
      createBrand(p.emulator.store("demo"), { name: "Alpha", desc: "Alpha desc" });
      createBrand(p.emulator.store("demo"), { name: "Old" });
      p.emulator.store("demo").seedBrands(18);
      const r = await p.cli(["plan", "--target", 'brand["Old"]', "--allow-delete", "--format", "json"]);
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as Plan).actions.map((a) => `${a.op} ${a.address}`)).toEqual(['delete brand["Old"]']);
    } finally {
      await p.close();
    }
  }, 60_000);
});
