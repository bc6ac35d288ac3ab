/**
 * The layers as a checked rule (issue 34): src/README.md holds the one table of which folder may
 * import which; this reads it and judges an import graph against it. Kept apart from the test so a
 * planted graph goes through the same checks as the real one.
 */

/** One row of the table: a folder ("plan/") or a root file ("errors.ts"), what it may import, and the rule's name. */
export interface LayerRule {
  unit: string;
  mayImport: string[];
  rule: string;
  /** Its line in the README, for messages about the table itself. */
  line: number;
}

/** An import between two files under src/ (paths relative to src/), at a line of the importing file. */
export interface Arrow {
  from: string;
  line: number;
  to: string;
}

export const TABLE_HEADING = "## Which folder may import which";

const NAME = /`([^`]+)`/g;

/** The rows of the table under TABLE_HEADING, top to bottom; throws when there is no such table. */
export function parseLayerTable(markdown: string): LayerRule[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === TABLE_HEADING);
  if (start === -1) throw new Error(`src/README.md has no section "${TABLE_HEADING}"`);
  const rows: LayerRule[] = [];
  let inTable = false;
  for (let i = start + 1; i < lines.length; i++) {
    const text = lines[i]!.trim();
    if (text.startsWith("## ")) break;
    if (!text.startsWith("|")) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = text.slice(1, text.endsWith("|") ? -1 : undefined).split("|");
    const unit = [...cells[0]!.matchAll(NAME)].map((m) => m[1]!);
    // The header and the |---| line name no folder in backticks.
    if (unit.length !== 1) continue;
    rows.push({ unit: unit[0]!, mayImport: [...(cells[1] ?? "").matchAll(NAME)].map((m) => m[1]!), rule: (cells[2] ?? "").trim(), line: i + 1 });
  }
  if (!rows.length) throw new Error(`src/README.md has no table under "${TABLE_HEADING}"`);
  return rows;
}

/** The table's unit of a path relative to src/: its top folder ("plan/kinds/brands.ts" -> "plan/"), or the root file itself. */
export function unitOf(file: string): string {
  const slash = file.indexOf("/");
  return slash === -1 ? file : file.slice(0, slash + 1);
}

/** What is wrong with the table itself: a unit listed twice, a name with no row, a row that may import one below it (a cycle could follow). */
export function tableProblems(rules: readonly LayerRule[]): string[] {
  const problems: string[] = [];
  const position = new Map<string, number>();
  rules.forEach((r, i) => {
    if (position.has(r.unit)) problems.push(`src/README.md:${r.line}: ${r.unit} has a second row`);
    else position.set(r.unit, i);
  });
  rules.forEach((r, i) => {
    for (const m of r.mayImport) {
      const at = position.get(m);
      if (at === undefined) problems.push(`src/README.md:${r.line}: ${r.unit} may import ${m}, which has no row`);
      else if (at >= i) problems.push(`src/README.md:${r.line}: ${r.unit} may import ${m}, which is not above it: a row may import only rows above it`);
    }
  });
  return problems;
}

/** Each import the table does not allow, as "src/FILE:LINE imports src/TO: ... (rule "...")"; also files whose unit has no row. */
export function layerViolations(rules: readonly LayerRule[], arrows: readonly Arrow[], files: readonly string[] = []): string[] {
  const byUnit = new Map(rules.map((r) => [r.unit, r]));
  const out: string[] = [];
  const missing = new Set<string>();
  for (const f of files) if (!byUnit.has(unitOf(f))) missing.add(unitOf(f));
  for (const a of arrows) {
    const from = unitOf(a.from);
    const to = unitOf(a.to);
    if (from === to) continue;
    const rule = byUnit.get(from);
    if (!rule) {
      missing.add(from);
      continue;
    }
    if (rule.mayImport.includes(to)) continue;
    out.push(
      `src/${a.from}:${a.line} imports src/${a.to}: ${to} is not among what ${from} may import ` +
        `(rule "${rule.rule}", src/README.md:${rule.line}: ${rule.mayImport.join(", ") || "nothing"})`,
    );
  }
  for (const u of [...missing].sort()) out.push(`src/${u} has no row in the table of src/README.md "${TABLE_HEADING}": add one`);
  return out;
}

/** The imports between units, as a graph of units (for the cycle check between folders). */
export function unitGraph(arrows: readonly Arrow[]): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const a of arrows) {
    const from = unitOf(a.from);
    const to = unitOf(a.to);
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    if (from !== to) graph.get(from)!.add(to);
  }
  return new Map([...graph].map(([k, v]) => [k, [...v].sort()]));
}
