/**
 * Move hints on Shopify's real taxonomy (10,595 categories) against a
 * realistic next release: 23 subtrees moved, 4 categories renamed, 230 added,
 * 8 removed. Without previous_paths the plan is deletes plus creates; the
 * hints must name exactly the moves and renames, and adding the lines they
 * print must turn the plan into moves and renames that keep every id.
 */
import { describe, expect, it } from "vitest";
import { parsePathKey, pathKey } from "../../src/model/catalogue.js";
import { buildPlan } from "../../src/plan/planner.js";
import { moveHints } from "../../src/plan/hints.js";
import { addr, categoryPath, parseAddress } from "../../src/plan/address.js";
import { desiredOf, nextRelease, remoteOf, taxonomyPaths } from "../helpers/taxonomy.js";
import { parse } from "yaml";

describe("move hints on Shopify's taxonomy", () => {
  const old = taxonomyPaths();
  const release = nextRelease(old, { moves: 23, renames: 4, adds: 230, removes: 8 });
  const remote = remoteOf(old);

  it("the unhinted plan deletes and creates; the hints name exactly the 23 moves and 4 renames", () => {
    expect(old.length).toBe(10595);
    expect(release.moved.size).toBe(23);
    expect(release.renamed.size).toBe(4);
    const desired = desiredOf(release.paths);
    const { plan, errors } = buildPlan({ tenant: "t", desired, remote, prune: { categories: true } });
    expect(errors).toEqual([]);
    const count = (op: string) => plan.actions.filter((a) => a.op === op).length;
    const t0 = performance.now();
    const hints = moveHints(plan, desired, remote);
    const ms = performance.now() - t0;
    const deletes = plan.actions.filter((a) => a.op === "delete");
    console.log(
      `taxonomy: ${old.length} -> ${release.paths.length} categories; unhinted plan: ${count("create")} creates, ${count("delete")} deletes ` +
        `(${deletes.filter((a) => a.flags.destructive).length} destructive); ${hints.length} hints in ${ms.toFixed(0)} ms`,
    );
    expect(deletes.every((a) => a.flags.destructive)).toBe(true);
    const expected = new Map<string, { create: string; add: string }>();
    for (const [from, to] of release.moved)
      expected.set(addr.category(parsePathKey(from)), { create: addr.category(to), add: `previous_paths: [${JSON.stringify(parsePathKey(from))}]` });
    for (const [from, to] of release.renamed)
      expected.set(addr.category(parsePathKey(from)), { create: addr.category(to), add: `previous_names: ${JSON.stringify([parsePathKey(from).at(-1)])}` });
    const got = new Map(hints.map((h) => [h.delete, { create: h.create, add: h.add }]));
    const wrong = hints.filter((h) => expected.get(h.delete)?.create !== h.create);
    const missed = [...expected.keys()].filter((k) => !got.has(k));
    console.log(`taxonomy hints: ${hints.length - wrong.length} right, ${wrong.length} not a real move, ${missed.length} moves missed`);
    expect(missed).toEqual([]);
    expect(wrong).toEqual([]);
    for (const [del, e] of expected) expect(got.get(del)?.add.replace(/, /g, ",")).toBe(e.add.replace(/, /g, ","));
  });

  it("adding the printed lines turns the plan into 23 moves and 4 renames, ids kept, 230 creates, 8 deletes", () => {
    const desired0 = desiredOf(release.paths);
    const plan0 = buildPlan({ tenant: "t", desired: desired0, remote, prune: { categories: true } }).plan;
    const hints = moveHints(plan0, desired0, remote);
    const lines = new Map<string, { previous_paths?: string[][]; previous_names?: string[] }>();
    for (const h of hints) lines.set(pathKey(categoryPath(parseAddress(h.create)!)!), parse(h.add) as { previous_paths?: string[][] });
    const { plan, errors } = buildPlan({ tenant: "t", desired: desiredOf(release.paths, lines), remote, prune: { categories: true } });
    expect(errors).toEqual([]);
    const count = (op: string) => plan.actions.filter((a) => a.op === op).length;
    console.log(`taxonomy with the hinted lines: ${count("move")} moves, ${count("rename")} renames, ${count("create")} creates, ${count("delete")} deletes`);
    expect({ move: count("move"), rename: count("rename"), create: count("create"), delete: count("delete") }).toEqual({
      move: 23,
      rename: 4,
      create: 230,
      delete: 8,
    });
    expect(moveHints(plan, desiredOf(release.paths, lines), remote)).toEqual([]);
    // Moves and renames update the tenant's records in place: their ids are kept.
    for (const a of plan.actions.filter((x) => x.op === "move" || x.op === "rename")) expect(a.refs.self).toEqual({ id: expect.any(Number) });
  });
});
