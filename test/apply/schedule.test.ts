/**
 * Which ready action starts first: the one with the longest chain behind it,
 * so the concurrency window stays full to the end of a large apply.
 */
import { describe, expect, it } from "vitest";
import { actionGraph, chainLengths, ReadyQueue } from "../../src/apply/schedule.js";
import type { Action } from "../../src/plan/types.js";

const action = (address: string, depends_on: string[] = []): Action => ({
  address,
  kind: "categories",
  type: "category",
  op: "create",
  changes: [],
  depends_on,
  flags: {} as Action["flags"],
  refs: {},
});

/** Chain length by address. */
function lengths(actions: Action[]): Map<string, number> {
  const length = chainLengths(actionGraph(actions).dependents);
  return new Map(actions.map((a, i) => [a.address, length[i]!]));
}

describe("the apply schedule", () => {
  // Ten independent actions listed first, then a chain of five: a FIFO would start the
  // independent ones first and end with the chain running one request at a time.
  const independent = Array.from({ length: 10 }, (_, i) => action(`brand["B${i}"]`));
  const chain = Array.from({ length: 5 }, (_, i) => action(`category["C${i}"]`, i ? [`category["C${i - 1}"]`] : []));
  const actions = [...independent, ...chain];

  it("measures the longest chain waiting for each action", () => {
    const length = lengths(actions);
    expect(length.get('category["C0"]')).toBe(5);
    expect(length.get('category["C4"]')).toBe(1);
    expect(length.get('brand["B3"]')).toBe(1);
  });

  it("starts the head of the longest chain first, then keeps plan order", () => {
    const q = new ReadyQueue(chainLengths(actionGraph(actions).dependents));
    actions.forEach((a, i) => a.depends_on.length || q.push(i));
    const order = [q.pop()!, q.pop()!, q.pop()!].map((i) => actions[i]!.address);
    expect(order).toEqual(['category["C0"]', 'brand["B0"]', 'brand["B1"]']);
    // A chain member that becomes ready outranks the remaining independent actions.
    q.push(actions.indexOf(chain[1]!));
    expect(actions[q.pop()!]!.address).toBe('category["C1"]');
  });

  it("takes a deep plan without recursion (a 50,000-level chain)", () => {
    const deep = Array.from({ length: 50_000 }, (_, i) => action(`category["D${i}"]`, i ? [`category["D${i - 1}"]`] : []));
    expect(lengths(deep).get('category["D0"]')).toBe(50_000);
  });

  it("counts only dependencies on actions of the plan, and each dependent once per dependency", () => {
    const plan = [action("a"), action("b", ["a", "gone"]), action("c", ["a", "b"])];
    const g = actionGraph(plan);
    expect([...g.waitingOn]).toEqual([0, 1, 2]);
    expect(g.dependents.map((d) => [...d])).toEqual([[1, 2], [2], []]);
  });
});
