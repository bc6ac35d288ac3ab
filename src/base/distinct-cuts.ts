/**
 * Names cut to fit a table's cell that stay told apart: a name over `max` characters shows its first
 * `max - 1` and "…"; where two such cuts read the same (names that differ only past the cut, as
 * `shop-…-eu` and `shop-…-us`), each shows its first 60% and its last 30% ("…" between); where even
 * that reads as another name, the name is shown whole. A name within `max` is never cut.
 */

/** How a name is shown: cut at its end, cut in its middle (keeping its tail), or whole. */
type Cut = 0 | 1 | 2;

function cutAs(name: string, max: number, cut: Cut): string {
  if (name.length <= max || cut === 2) return name;
  if (cut === 0) return `${name.slice(0, max - 1)}…`;
  return `${name.slice(0, Math.floor(max * 0.6))}…${name.slice(-Math.floor(max * 0.3))}`;
}

/**
 * The names as a table shows them, each told apart from every other: a name whose shown form reads as
 * another's moves to the next, longer form until none does. It ends with no two alike, since a name
 * within `max` and a name shown whole (longer than `max`) are each only themselves.
 */
export function distinctCuts(names: readonly string[], max: number): (name: string) => string {
  const cuts = new Map<string, Cut>([...new Set(names)].filter((n) => n.length > max).map((n) => [n, 0]));
  const shownOf = (n: string) => cutAs(n, max, cuts.get(n) ?? 0);
  for (let moved = true; moved;) {
    moved = false;
    const times = new Map<string, number>();
    for (const n of new Set(names)) times.set(shownOf(n), (times.get(shownOf(n)) ?? 0) + 1);
    for (const [n, cut] of cuts) {
      if (cut < 2 && times.get(shownOf(n))! > 1) {
        cuts.set(n, (cut + 1) as Cut);
        moved = true;
      }
    }
  }
  return (n) => (cuts.has(n) ? shownOf(n) : cutAs(n, max, 0));
}
