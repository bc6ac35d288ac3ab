/**
 * The order apply starts ready actions in. Every ready action may run (the
 * plan's depends_on decides that); which one starts first decides how long
 * the whole apply takes. Starting the action with the longest chain of
 * dependents still behind it first keeps the concurrency window full to the
 * end, instead of finishing with a few deep chains (category levels, a value
 * and then its translations) running one request at a time.
 */
import type { Action } from "../plan/types.js";

/** For each action, the number of actions on the longest chain that waits for it (itself included). */
export function chainLengths(actions: readonly Action[], dependents: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const length = new Map<string, number>();
  // Iterative post-order: plans are deep (category trees), recursion would overflow.
  for (const root of actions) {
    if (length.has(root.address)) continue;
    const stack: Array<{ address: string; next: number }> = [{ address: root.address, next: 0 }];
    const onStack = new Set<string>([root.address]);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const after = dependents.get(top.address) ?? [];
      if (top.next < after.length) {
        const d = after[top.next++]!;
        // A cycle cannot be applied and the planner never makes one; guard anyway.
        if (!length.has(d) && !onStack.has(d)) {
          stack.push({ address: d, next: 0 });
          onStack.add(d);
        }
        continue;
      }
      let longest = 0;
      for (const d of after) longest = Math.max(longest, length.get(d) ?? 0);
      length.set(top.address, longest + 1);
      onStack.delete(top.address);
      stack.pop();
    }
  }
  return length;
}

/** Ready actions, longest chain first; ties in plan order, so a run is repeatable. */
export class ReadyQueue {
  private readonly heap: Array<{ action: Action; priority: number; order: number }> = [];
  constructor(
    private readonly priority: ReadonlyMap<string, number>,
    private readonly order: ReadonlyMap<string, number>,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  push(action: Action): void {
    const item = { action, priority: this.priority.get(action.address) ?? 1, order: this.order.get(action.address) ?? 0 };
    const h = this.heap;
    h.push(item);
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  pop(): Action | undefined {
    const h = this.heap;
    if (!h.length) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < h.length && this.before(h[l]!, h[best]!)) best = l;
        if (r < h.length && this.before(h[r]!, h[best]!)) best = r;
        if (best === i) break;
        [h[i], h[best]] = [h[best]!, h[i]!];
        i = best;
      }
    }
    return top.action;
  }

  private before(a: { priority: number; order: number }, b: { priority: number; order: number }): boolean {
    return a.priority !== b.priority ? a.priority > b.priority : a.order < b.order;
  }
}
