/**
 * The doctor's report for people: token and reach, page sizes, every reading with its evidence
 * and what pimctl does under it, the write probes and what they left, and the emulator command
 * that reads API v1 the same way. What the tenant wrote is escaped (src/base/controls.ts).
 */
import type { DoctorReport, Finding, Leftover } from "../doctor/types.js";
import { escapeControls } from "../base/controls.js";

const e = (s: string) => escapeControls(s);

const OUTCOME: Record<Finding["outcome"], string> = { known: "", unknown: "UNKNOWN", undetermined: "not determined", "not-probed": "not probed" };

function finding(f: Finding): string[] {
  const head =
    f.outcome === "known"
      ? `  ${f.switch} = ${JSON.stringify(f.reading)}`
      : `  ${f.switch}: ${OUTCOME[f.outcome]}${f.candidates ? ` (${f.candidates.map((c) => JSON.stringify(c)).join(" or ")})` : ""}`;
  const lines = [head];
  if (f.seen) lines.push(`      seen: ${e(f.seen)}`);
  for (const ev of f.evidence) lines.push(`      evidence: ${e(ev.request)}${ev.status !== undefined ? ` → ${ev.status}` : ""}: ${e(ev.shows)}`);
  lines.push(`      ${f.outcome === "known" || f.outcome === "unknown" ? "pimctl" : "why"}: ${e(f.means)}`);
  return lines;
}

const leftover = (l: Leftover) => `  ${l.kind} ${l.id} ${JSON.stringify(e(l.name))}${l.error ? ` (${e(l.error)})` : ""}: remove with: ${l.remove}`;

function reach(r: DoctorReport): string[] {
  const lines = ["Token and reach"];
  const lat = r.latency;
  lines.push(`  token accepted${lat ? `; latency: median ${lat.median_ms} ms, slowest ${lat.slowest_ms} ms (${lat.pings.length} pings)` : ""}`);
  const width = Math.max(0, ...r.reach.map((x) => x.kind.length));
  for (const x of r.reach)
    lines.push(
      `  ${x.problem ? "!" : "✓"} ${x.kind.padEnd(width)}  ${e(x.request)}${x.status !== undefined ? ` → ${x.status}` : ""}` +
        `${x.records !== undefined ? `, ${x.records} record${x.records === 1 ? "" : "s"}` : ""}${x.problem ? `: ${e(x.problem)}` : ""}`,
    );
  if (r.page_sizes.length) {
    lines.push("", "Largest page each paged list takes");
    for (const p of r.page_sizes) {
      const how = {
        "422-above": `${p.largest} (422 above)`,
        clamped: `clamped to ${p.largest}`,
        accepted: `${p.largest} taken as asked`,
        "no-meta": `${p.largest} taken (no meta: a clamp would not show)`,
        refused: "every limit refused",
        unreachable: "not read (Token and reach says why)",
      }[p.how];
      lines.push(`  ${p.list.padEnd(width)}  ${how}`);
    }
  }
  return lines;
}

function probes(r: DoctorReport): string[] {
  const w = r.write_probes;
  const lines = ["", "Write probes"];
  if (w.why_not) lines.push(`  ${e(w.why_not)}`);
  if (w.ran || w.removed.length)
    lines.push(`  removed ${w.removed.length} probe record${w.removed.length === 1 ? "" : "s"}${w.left.length ? "" : "; nothing left behind"}`);
  for (const l of w.left) lines.push(`  left behind: ${leftover(l).trim()}`);
  for (const n of w.notes) lines.push(`  note: ${e(n)}`);
  if (r.leftovers_removed.length) lines.push(`  removed ${r.leftovers_removed.length} record${r.leftovers_removed.length === 1 ? "" : "s"} earlier runs left`);
  if (r.leftovers.length) lines.push("", "Records earlier doctor runs left (found by their prefix)", ...r.leftovers.map(leftover));
  return lines;
}

export function renderDoctorText(r: DoctorReport): string {
  const count = (o: Finding["outcome"]) => r.findings.filter((f) => f.outcome === o).length;
  const lines = [`pimctl doctor: tenant "${e(r.tenant)}" at ${r.base_url} (pimctl ${r.pimctl_version}, Node ${r.node_version})`, "", ...reach(r)];
  if (r.findings.length) {
    lines.push("", "Readings (named as the emulator's switches, src/emulator/README.md)");
    for (const f of r.findings) lines.push(...finding(f));
  }
  lines.push(...probes(r));
  if (r.emulator_options.length || r.findings.length)
    lines.push("", `An emulator that reads API v1 the same way: pimctl emulator ${r.emulator_options.join(" ")}`.trimEnd());
  if (r.interrupted) lines.push("", `Interrupted (${r.interrupted}): the readings not looked at are marked so.`);
  lines.push(
    "",
    `${count("known")} known, ${count("unknown")} unknown, ${count("undetermined")} not determined, ${count("not-probed")} not probed; ${r.requests} requests.`,
  );
  return `${lines.join("\n")}\n`;
}

/** Whether the report needs a person: an unknown reading, records left behind, an interruption. */
export function doctorProblems(r: DoctorReport): string[] {
  return [
    ...r.findings.filter((f) => f.outcome === "unknown").map((f) => `${f.switch}: the tenant answers in a way no reading covers (${f.seen ?? ""})`),
    ...(r.write_probes.left.length ? [`${r.write_probes.left.length} probe record(s) could not be removed (listed above)`] : []),
    ...(r.leftovers.length ? [`${r.leftovers.length} record(s) of earlier doctor runs are still in the tenant (listed above)`] : []),
    ...(r.reach.some((x) => x.problem) ? ["some lists cannot be read as API v1 shows them (Token and reach)"] : []),
    ...(r.interrupted ? [`interrupted (${r.interrupted})`] : []),
  ];
}
