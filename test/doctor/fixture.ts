/**
 * Shared by test/doctor/: a tenant with a little of everything doctor's read-only detectors look
 * at (a translated and an untranslated attribute, a set assigned to a category, a brand whose
 * name has letters, entries in the changelog), seeded through the API as any client would, and
 * the doctor command run in-process with its JSON report parsed.
 */
import { expect } from "vitest";
import { createClient } from "../../src/api/client.js";
import type { Emulator } from "../../src/emulator/index.js";
import type { DoctorReport, Finding } from "../../src/doctor/types.js";
import { PROBE_PREFIX } from "../../src/doctor/probe-records.js";
import type { TestProject } from "../helpers/project.js";

export async function seedTenant(emulator: Emulator | string, hash: string, token: string): Promise<void> {
  const baseUrl = typeof emulator === "string" ? emulator : emulator.tenantUrl(hash);
  const api = createClient({ tenant: hash, baseUrl, token, retries: { max: 0 } });
  try {
    const group = await api.createDisplayGroup({ name: "Basics", in_navigation: true });
    const colour = await api.createAttribute({ name: "Colour", type: "selectbox", sort_order: 1, publish: true, display_group_id: group.id });
    await api.updateAttributeVersion(colour.id, 2, { name: "Couleur" });
    await api.createTypeValue(colour.id, { value: "Red" });
    const size = await api.createAttribute({ name: "Size", type: "text", sort_order: 2, publish: false });
    const set = await api.createAttributeSet({ name: "Apparel", sort_order: 0 });
    await api.addAttributeToSet(set.id, colour.id);
    await api.addAttributeToSet(set.id, size.id);
    await api.createBrand({ name: "Acme", desc: "Tools", excluded: false });
    const apparel = await api.createCategory({ parent_id: 0, name: "Apparel", attribute_sets: [set.id], is_visible: true });
    await api.createCategory({ parent_id: apparel.id, name: "Shirts" });
  } finally {
    await api.close();
  }
}

/** `pimctl doctor --format json ...args` in the project; the report and the exit code. */
export async function runDoctor(
  p: TestProject,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; report: DoctorReport; stderr: string }> {
  const r = await p.cli(["doctor", "--format", "json", "--pings", "2", ...args], { env });
  let report: DoctorReport;
  try {
    report = JSON.parse(r.stdout) as DoctorReport;
  } catch {
    throw new Error(`doctor printed no JSON report (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  return { code: r.code, report, stderr: r.stderr };
}

export function findingOf(report: DoctorReport, name: string): Finding {
  const f = report.findings.find((x) => x.switch === name);
  expect(f, `no finding for ${name}`).toBeDefined();
  return f!;
}

/** Names of records still in the tenant that carry doctor's prefix. */
export function probeRecordsLeft(emulator: Emulator, hash: string): string[] {
  const s = emulator.store(hash);
  const named = (n: unknown) => typeof n === "string" && n.startsWith(PROBE_PREFIX);
  return [
    ...[...s.brands.values()].map((b) => b.name),
    ...[...s.categories.values()].map((c) => c.name),
    ...[...s.attributes.values()].map((a) => a.name),
    ...[...s.attributeSets.values()].map((x) => x.name),
    ...[...s.brandAssets.values()].map((a) => a.alttext),
  ].filter(named);
}
