/**
 * Planner benchmark (prints figures; not a timed test): 50,000 desired
 * objects against 50,000 current ones, once identical and once with every
 * tenth record changed. Run: npm run build && node dist/bench/plan.js
 */
import { performance } from "node:perf_hooks";
import { emptyCatalogue, type Catalogue, type Category } from "../model/catalogue.js";
import { emptyRemote, type RemoteCatalogue, type RemoteCategory } from "../model/remote.js";
import { buildPlan } from "../plan/planner.js";

function generate(changeEvery: number): { desired: Catalogue; remote: RemoteCatalogue } {
  const desired: Catalogue = { ...emptyCatalogue(), managed: ["attributes", "brands", "categories"], versions: [] };
  const remote: RemoteCatalogue = { ...emptyRemote(), read: ["attributes", "brands", "categories"] };
  let id = 1;
  const changed = (i: number) => changeEvery > 0 && i % changeEvery === 0;
  // 500 attributes x 10 values = 5,500 objects
  for (let a = 0; a < 500; a++) {
    const values = Array.from({ length: 10 }, (_, v) => ({ value: `Value ${a}-${v}`, sort_order: v }));
    desired.attributes.push({ name: `Attribute ${a}`, type: "selectbox", sort_order: a, publish: !changed(a), values });
    remote.attributes.push({
      id: id++,
      name: `Attribute ${a}`,
      type: "selectbox",
      sort_order: a,
      publish: true,
      values: values.map((v) => ({ ...v, id: id++ })),
    });
  }
  // 4,500 brands
  for (let b = 0; b < 4500; b++) {
    desired.brands.push({ name: `Brand ${b}`, desc: changed(b) ? `New description ${b}` : `Description ${b}` });
    remote.brands.push({ id: id++, name: `Brand ${b}`, desc: `Description ${b}`, product_count: 0 });
  }
  // 40,000 categories: 40 roots x 10 x 100
  const cats: Category[] = [];
  const rcats: RemoteCategory[] = [];
  let n = 0;
  for (let r = 0; r < 40; r++) {
    const rid = id++;
    cats.push({ path: [`Root ${r}`], name: `Root ${r}` });
    rcats.push({ id: rid, parent_id: null, path: [`Root ${r}`], name: `Root ${r}`, child_count: 10 });
    for (let c = 0; c < 10; c++) {
      const cid = id++;
      cats.push({ path: [`Root ${r}`, `Child ${c}`], name: `Child ${c}` });
      rcats.push({ id: cid, parent_id: rid, path: [`Root ${r}`, `Child ${c}`], name: `Child ${c}`, child_count: 99 });
      for (let g = 0; g < 99; g++) {
        const path = [`Root ${r}`, `Child ${c}`, `Leaf ${g}`];
        cats.push({ path, name: `Leaf ${g}`, is_visible: !changed(n++) });
        rcats.push({ id: id++, parent_id: cid, path, name: `Leaf ${g}`, is_visible: true, child_count: 0 });
      }
    }
  }
  desired.categories = cats;
  remote.categories = rcats;
  return { desired, remote };
}

function run(label: string, changeEvery: number): void {
  const { desired, remote } = generate(changeEvery);
  const objects =
    desired.attributes.length + desired.attributes.reduce((s, a) => s + (a.values?.length ?? 0), 0) + desired.brands.length + desired.categories.length;
  buildPlan({ tenant: "bench", desired, remote }); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { plan } = buildPlan({ tenant: "bench", desired, remote });
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${label}: ${objects} desired vs ${objects} current objects -> ${plan.actions.length} actions; ` +
      `wall ${wall.toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`,
  );
}

run("identical", 0);
run("every 10th changed", 10);
