/**
 * The order apply starts ready actions in. Every ready action may run (the
 * plan's depends_on decides that); which one starts first decides how long
 * the whole apply takes. Starting the action with the longest chain of
 * dependents still behind it first keeps the concurrency window full to the
 * end, instead of finishing with a few deep chains (category levels, a value
 * and then its translations) running one request at a time.
 *
 * Actions are numbered by their place in the plan: a plan of 80,000 creates
 * kept five maps keyed by address for this, tens of megabytes an apply held.
 */
import type { Action } from "../plan/types.js";

const NONE: readonly number[] = Object.freeze([]);

/** The plan's dependencies by action number: how many each waits for, and which wait for each. */
export interface ActionGraph {
  /** Address -> action number. */
  index: Map<string, number>;
  waitingOn: Int32Array;
  dependents: ReadonlyArray<readonly number[]>;
}

/** depends_on entries that name no action of the plan are already satisfied. */
export function actionGraph(actions: readonly Action[]): ActionGraph {
  const index = new Map<string, number>();
  actions.forEach((a, i) => index.set(a.address, i));
  const waitingOn = new Int32Array(actions.length);
  const dependents: Array<readonly number[]> = new Array(actions.length).fill(NONE);
  actions.forEach((a, i) => {
    for (const d of a.depends_on) {
      const j = index.get(d);
      if (j === undefined) continue;
      waitingOn[i]!++;
      if (dependents[j] === NONE) dependents[j] = [i];
      else (dependents[j] as number[]).push(i);
    }
  });
  return { index, waitingOn, dependents };
}

/** For each action, the number of actions on the longest chain that waits for it (itself included). */
export function chainLengths(dependents: ReadonlyArray<readonly number[]>): Int32Array {
  const length = new Int32Array(dependents.length);
  const onStack = new Uint8Array(dependents.length);
  // Iterative post-order: plans are deep (category trees), recursion would overflow.
  const stack: number[] = [];
  const next: number[] = [];
  for (let root = 0; root < dependents.length; root++) {
    if (length[root]) continue;
    stack.push(root);
    next.push(0);
    onStack[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const after = dependents[top]!;
      const k = next[next.length - 1]!;
      if (k < after.length) {
        next[next.length - 1] = k + 1;
        const d = after[k]!;
        // A cycle cannot be applied and the planner never makes one; guard anyway.
        if (!length[d] && !onStack[d]) {
          stack.push(d);
          next.push(0);
          onStack[d] = 1;
        }
        continue;
      }
      let longest = 0;
      for (const d of after) longest = Math.max(longest, length[d]!);
      length[top] = longest + 1;
      onStack[top] = 0;
      stack.pop();
      next.pop();
    }
  }
  return length;
}

/** Ready actions by number, longest chain first; ties in plan order, so a run is repeatable. */
export class ReadyQueue {
  private readonly heap: number[] = [];
  constructor(private readonly priority: Int32Array) {}

  get size(): number {
    return this.heap.length;
  }

  push(i: number): void {
    const h = this.heap;
    h.push(i);
    for (let k = h.length - 1; k > 0;) {
      const parent = (k - 1) >> 1;
      if (!this.before(h[k]!, h[parent]!)) break;
      [h[k], h[parent]] = [h[parent]!, h[k]!];
      k = parent;
    }
  }

  pop(): number | undefined {
    const h = this.heap;
    if (!h.length) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      for (let k = 0; ;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let best = k;
        if (l < h.length && this.before(h[l]!, h[best]!)) best = l;
        if (r < h.length && this.before(h[r]!, h[best]!)) best = r;
        if (best === k) break;
        [h[k], h[best]] = [h[best]!, h[k]!];
        k = best;
      }
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    const pa = this.priority[a]!;
    const pb = this.priority[b]!;
    return pa !== pb ? pa > pb : a < b;
  }
}
