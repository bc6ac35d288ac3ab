/**
 * Which tenants a command works on (issue 35): `--tenant` takes comma-separated names and
 * globs (`prod-eu,prod-us`, `'prod-*'`, `'*'`), and config `rollout:` puts the selected tenants
 * in waves. One plain name keeps today's rule and today's messages (pickTenant), so a
 * single-tenant command prints what it always printed.
 */
import { PimctlError, closeNames } from "../errors.js";
import { globProblem, isGlob, nameGlob } from "../base/name-globs.js";
import type { Config, TenantConfig } from "./index.js";

/**
 * The tenant a command works on: --tenant, or the only one the config names. A glob or a list
 * must select exactly one (selectOneTenant): a command that works on one never picks one of
 * several silently.
 */
export function pickTenant(config: Config, name: string | undefined): { name: string; tenant: TenantConfig } {
  if (name !== undefined && (isGlob(name) || name.includes(","))) {
    const one = selectOneTenant(config, name);
    return { name: one, tenant: config.tenants[one]! };
  }
  const names = Object.keys(config.tenants).sort();
  if (name === undefined) {
    if (names.length === 1) return { name: names[0]!, tenant: config.tenants[names[0]!]! };
    throw new PimctlError(
      "usage",
      names.length === 0
        ? `no tenants are configured${config.file ? ` in ${config.file}` : " (no pimctl.yaml found)"}; add one under tenants: or run 'pimctl init'`
        : `name a tenant with --tenant (configured: ${names.join(", ")})`,
    );
  }
  const tenant = config.tenants[name];
  if (!tenant) {
    const close = closeNames(name, names);
    throw new PimctlError("config", `tenant "${name}" is not configured${config.file ? ` in ${config.file}` : ""}`, {
      details: [close.length ? `did you mean: ${close.join(", ")}?` : `configured tenants: ${names.join(", ") || "(none)"}`],
    });
  }
  return { name, tenant };
}

/** The parts of a --tenant value: comma-separated, trimmed, empty parts dropped. */
function specParts(spec: string): string[] {
  return spec
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/**
 * Tenant names matching a --tenant value: comma-separated names and globs (`*`, `?`, `[...]`),
 * sorted by name, each once. A part that matches nothing is a usage error naming the configured
 * tenants (every such part in one error). `undefined` → today's rule: the only tenant, else a
 * usage error. One plain name that is not configured is today's error (pickTenant: did you mean).
 */
export function selectTenants(config: Config, spec: string | undefined): string[] {
  if (spec === undefined) return [pickTenant(config, undefined).name];
  const parts = specParts(spec);
  for (const part of parts.filter(isGlob)) {
    const problem = globProblem(part);
    if (problem) throw new PimctlError("usage", `--tenant "${part}": ${problem}`);
  }
  if (parts.length === 1 && !isGlob(parts[0]!)) return [pickTenant(config, parts[0]).name];
  const names = Object.keys(config.tenants).sort();
  const chosen = new Set<string>();
  const unmatched: string[] = [];
  for (const part of parts) {
    const hits = isGlob(part) ? names.filter((n) => nameGlob(part).test(n)) : names.filter((n) => n === part);
    if (!hits.length) unmatched.push(part);
    for (const h of hits) chosen.add(h);
  }
  if (unmatched.length || !parts.length) {
    const what = parts.length ? unmatched.map((u) => `"${u}"`).join(", ") : `"${spec}"`;
    throw new PimctlError("usage", `--tenant ${what} matches no configured tenant${config.file ? ` in ${config.file}` : ""}`, {
      details: [
        ...unmatched
          .filter((u) => !isGlob(u))
          .flatMap((u) => {
            const close = closeNames(u, names);
            return close.length ? [`"${u}": did you mean: ${close.join(", ")}?`] : [];
          }),
        `configured tenants: ${names.join(", ") || "(none)"}`,
      ],
    });
  }
  return [...chosen].sort();
}

/**
 * One tenant for a command that works on one (export, diff, doctor, ping, state push/pull...):
 * a value that selects several is a usage error naming them, so `--tenant 'prod-*'` never picks
 * one of them silently.
 */
export function selectOneTenant(config: Config, spec: string | undefined, command = "this command"): string {
  const selected = selectTenants(config, spec);
  if (selected.length > 1) {
    throw new PimctlError("usage", `${command} works on one tenant, and --tenant "${spec}" selects ${selected.length}: ${selected.join(", ")}`, {
      details: ["name one of them with --tenant"],
    });
  }
  return selected[0]!;
}

/**
 * The rollout waves of a selection: config `rollout:` (a list of lists of names/globs), each
 * tenant in the FIRST wave that matches it; selected tenants no wave names form a last wave.
 * Waves with no selected tenant are dropped; each wave is sorted by name. Without `rollout:`,
 * one wave of all (none for an empty selection).
 */
export function rolloutWaves(config: Config, tenants: readonly string[]): string[][] {
  const sorted = [...new Set(tenants)].sort();
  const rollout = config.rollout ?? [];
  const waves: string[][] = rollout.map(() => []);
  const rest: string[] = [];
  for (const tenant of sorted) {
    const wave = rollout.findIndex((patterns) => patterns.some((p) => (isGlob(p) ? nameGlob(p).test(tenant) : p === tenant)));
    if (wave < 0) rest.push(tenant);
    else waves[wave]!.push(tenant);
  }
  return [...waves, rest].filter((w) => w.length > 0);
}
