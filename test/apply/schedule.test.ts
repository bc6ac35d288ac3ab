/**
 * Which ready action starts first: the one with the longest chain behind it,
 * so the concurrency window stays full to the end of a large apply.
 */
import { describe, expect, it } from "vitest";
import { chainLengths, ReadyQueue } from "../../src/apply/schedule.js";
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

function graph(actions: Action[]) {
  const dependents = new Map<string, string[]>();
  for (const a of actions) for (const d of a.depends_on) (dependents.get(d) ?? dependents.set(d, []).get(d)!).push(a.address);
  return dependents;
}

describe("the apply schedule", () => {
  // Ten independent actions listed first, then a chain of five: a FIFO would start the
  // independent ones first and end with the chain running one request at a time.
  const independent = Array.from({ length: 10 }, (_, i) => action(`brand["B${i}"]`));
  const chain = Array.from({ length: 5 }, (_, i) => action(`category["C${i}"]`, i ? [`category["C${i - 1}"]`] : []));
  const actions = [...independent, ...chain];

  it("measures the longest chain waiting for each action", () => {
    const length = chainLengths(actions, graph(actions));
    expect(length.get('category["C0"]')).toBe(5);
    expect(length.get('category["C4"]')).toBe(1);
    expect(length.get('brand["B3"]')).toBe(1);
  });

  it("starts the head of the longest chain first, then keeps plan order", () => {
    const q = new ReadyQueue(chainLengths(actions, graph(actions)), new Map(actions.map((a, i) => [a.address, i])));
    for (const a of actions.filter((x) => !x.depends_on.length)) q.push(a);
    const order = [q.pop()!.address, q.pop()!.address, q.pop()!.address];
    expect(order).toEqual(['category["C0"]', 'brand["B0"]', 'brand["B1"]']);
    // A chain member that becomes ready outranks the remaining independent actions.
    q.push(chain[1]!);
    expect(q.pop()!.address).toBe('category["C1"]');
  });

  it("takes a deep plan without recursion (a 50,000-level chain)", () => {
    const deep = Array.from({ length: 50_000 }, (_, i) => action(`category["D${i}"]`, i ? [`category["D${i - 1}"]`] : []));
    expect(chainLengths(deep, graph(deep)).get('category["D0"]')).toBe(50_000);
  });
});
