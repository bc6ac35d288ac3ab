/**
 * STAND-IN for part A of issue 35 (wt-fleet-tenants), written to contract 1 of the fleet design so the
 * rollout can be built and tested before A lands: at the merge, A's file replaces this one whole.
 */
import { PimctlError } from "../errors.js";
import type { Config } from "./index.js";

const globRe = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );

/** Tenant names matching a --tenant value (comma-separated names and globs), sorted; undefined: the only tenant. */
export function selectTenants(config: Config, spec: string | undefined): string[] {
  const names = Object.keys(config.tenants).sort();
  if (spec === undefined) {
    if (names.length === 1) return names;
    throw new PimctlError("usage", `name a tenant with --tenant (configured: ${names.join(", ")})`);
  }
  const picked = new Set<string>();
  for (const part of spec.split(",").map((s) => s.trim())) {
    const found = names.filter((n) => globRe(part).test(n));
    if (!found.length) throw new PimctlError("usage", `--tenant ${part} matches no tenant (configured: ${names.join(", ")})`);
    for (const n of found) picked.add(n);
  }
  return [...picked].sort();
}

/** The rollout waves of a selection: config `rollout:` (lists of names/globs), each tenant in the first wave naming it; the rest last. */
export function rolloutWaves(config: Config, tenants: readonly string[]): string[][] {
  const rollout = (config as Config & { rollout?: string[][] }).rollout ?? [];
  const left = new Set(tenants);
  const waves: string[][] = [];
  for (const wave of rollout) {
    const these = [...left].filter((t) => wave.some((g) => globRe(g).test(t))).sort();
    for (const t of these) left.delete(t);
    if (these.length) waves.push(these);
  }
  if (left.size) waves.push([...left].sort());
  return waves;
}
