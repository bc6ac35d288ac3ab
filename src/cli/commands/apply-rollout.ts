/**
 * `pimctl apply --tenant GLOB` when it selects two tenants or more: every tenant planned, the plans
 * shown and approved once, then the rollout (src/workflows/rollout.ts) and its one table. One
 * tenant never comes here: it is today's apply, byte for byte.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { planRollout } from "../../workflows/rollout-plan.js";
import { projectConfig } from "../../workflows/project.js";
import { selectTenants } from "../../config/select.js";
import { rollout, DEFAULT_TENANT_PARALLELISM, type RolloutFleet, type RolloutResult, type RolloutTenant } from "../../workflows/rollout.js";
import { renderPlan } from "../../render/index.js";
import { renderRolloutTable } from "../../render/rollout.js";
import { notDoneLines } from "../../render/apply-summary.js";
import { hasChanges } from "../../plan/types.js";
import { publicPlan } from "../../planfile/file.js";
import { PimctlError } from "../../errors.js";
import { escapeControls, jsonText } from "../../base/controls.js";
import { plural } from "../../plural.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import type { Io } from "../io.js";
import { durationOption, projectOptions, say, warnLine, type GlobalArgs } from "../options.js";
import { reportStateProblems, stateProblems } from "../apply-report.js";
import { shellWord } from "../../base/shell-words.js";
import type { BundleHooks } from "../bundle.js";

export interface RolloutArgs extends GlobalArgs {
  "auto-approve"?: boolean;
  "allow-delete"?: boolean;
  "allow-empty-files"?: boolean;
  "dry-run"?: boolean;
  "fail-fast"?: boolean;
  report?: string;
  "backup-profile"?: number;
  target?: string[];
  exclude?: string[];
  "lock-timeout"?: string;
  compact?: boolean;
  summary?: boolean;
  "if-applied"?: "ok" | "fail";
  "max-failed-tenants"?: number;
  "tenant-parallelism"?: number;
  format?: "text" | "json";
}

/** Plan every tenant, show the plans, ask once (or --auto-approve), roll out, print the table; exit 4 unless every tenant converged. */
export async function applyRollout(args: RolloutArgs, io: Io, tenants: readonly string[], extra: BundleHooks["options"]): Promise<void> {
  if (args["dry-run"])
    throw new PimctlError("usage", `--dry-run shows the requests of one tenant: name one with --tenant (this selects ${tenants.join(", ")})`);
  const parallelism = positive(args["tenant-parallelism"], "--tenant-parallelism") ?? DEFAULT_TENANT_PARALLELISM;
  const maxFailed = positive(args["max-failed-tenants"], "--max-failed-tenants") ?? 1;
  const base = { ...projectOptions(args, io), ...extra, warn: warnLine(io) };
  const fleet = await planRollout(
    {
      ...base,
      ...(args.target ? { targets: args.target } : {}),
      ...(args.exclude ? { excludes: args.exclude } : {}),
      allowDelete: args["allow-delete"] === true,
      allowEmptyFiles: args["allow-empty-files"] === true,
    },
    tenants,
    parallelism,
  );
  if (!args.quiet || !args["auto-approve"]) showPlans(fleet, args, io);
  if (!args["auto-approve"] && !(await approved(fleet, io))) {
    io.stderr("Apply cancelled; nothing was changed.\n");
    throw new ExitWith(EXIT.error);
  }
  const result = await rollout(fleet, {
    ...base,
    maxFailedTenants: maxFailed,
    tenantParallelism: parallelism,
    resumeCommand: resumeCommand(args),
    failFast: args["fail-fast"] === true,
    ...(args["lock-timeout"] ? { lockTimeoutMs: durationOption(args["lock-timeout"]) } : {}),
    ...(args["if-applied"] ? { ifApplied: args["if-applied"] } : {}),
    ...(args["backup-profile"] !== undefined ? { backupProfile: args["backup-profile"] } : {}),
    onTenantStart: (tenant, wave) => say(args, io, `${tenant}: applying (wave ${wave})`),
    onTenantEnd: (row) => tenantEnded(row, args, io),
  });
  io.stderr(renderRolloutTable(result.tenants, result.resume));
  const json = rolloutJson(result);
  if (args.format === "json") io.stdout(json);
  if (args.report) await writeFile(path.resolve(io.cwd, args.report), json);
  if (result.tenants.some((t) => t.outcome !== "applied" && t.outcome !== "already applied")) throw new ExitWith(EXIT.partial);
}

function positive(n: number | undefined, option: string): number | undefined {
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < 1) throw new PimctlError("usage", `${option} takes a whole number of 1 or more (got ${String(n)})`);
  return n;
}

/** Each tenant's plan (or why it could not be planned) in wave order, under its name, on stderr as apply shows its plan. */
function showPlans(fleet: RolloutFleet, args: RolloutArgs, io: Io): void {
  const byName = new Map(fleet.tenants.map((t) => [t.tenant, t]));
  fleet.waves.forEach((wave, i) => {
    for (const name of wave) {
      const t = byName.get(name)!;
      io.stderr(`\n== Tenant ${escapeControls(name)} (wave ${i + 1} of ${fleet.waves.length}) ==\n`);
      if (!t.plan)
        io.stderr(`error: ${escapeControls(t.error?.message ?? "not planned")}\n${(t.error?.details ?? []).map((d) => `  ${escapeControls(d)}\n`).join("")}`);
      else io.stderr(renderPlan(publicPlan(t.plan), "text", { color: false, ...(args.summary ? { summary: true } : args.compact ? { compact: true } : {}) }));
    }
  });
}

async function approved(fleet: RolloutFleet, io: Io): Promise<boolean> {
  const changing = fleet.tenants.filter((t) => t.plan && hasChanges(t.plan)).length;
  const failed = fleet.tenants.filter((t) => !t.plan).length;
  const question =
    `\nApply to ${plural(changing, "tenant")} with changes, in ${plural(fleet.waves.length, "wave")}` +
    `${failed ? ` (${plural(failed, "tenant")} could not be planned: the rollout stops at the first)` : ""}? Only 'yes' is accepted: `;
  return (await io.ask(question)).trim() === "yes";
}

/** A tenant's end as it happens: its outcome line, then what went wrong (its failed actions, its error, its state). */
function tenantEnded(row: RolloutTenant, args: RolloutArgs, io: Io): void {
  const line = `${row.tenant}: ${row.outcome}${row.detail ? ` (${row.detail})` : ""}`;
  if (row.outcome === "applied" || row.outcome === "already applied") say(args, io, line);
  else io.stderr(`${escapeControls(line)}\n`);
  if (row.error)
    io.stderr(
      `${row.error
        .split("\n")
        .map((l) => `  ${escapeControls(l)}\n`)
        .join("")}`,
    );
  const r = row.result;
  if (!r?.report) return;
  for (const failed of notDoneLines(r.plan, r.report, { savedPlan: true }).failed) io.stderr(`  ${escapeControls(failed)}\n`);
  for (const m of r.verification?.mismatches ?? []) io.stderr(`  verification: ${escapeControls(`${m.address}: ${m.fields.join(", ")}`)}\n`);
  reportStateProblems(r, io, row.tenant);
}

/** The same command, as a person types it: re-run, it skips the tenants already at their plan. */
export function resumeCommand(args: RolloutArgs): string {
  const words = ["pimctl", "apply"];
  const opt = (name: string, value: string | number | boolean | undefined) => {
    if (value === undefined || value === false) return;
    words.push(`--${name}`, ...(value === true ? [] : [shellWord(String(value))]));
  };
  opt("config", args.config);
  opt("dir", args.dir);
  opt("tenant", args.tenant);
  for (const t of args.target ?? []) opt("target", t);
  for (const e of args.exclude ?? []) opt("exclude", e);
  for (const flag of ["auto-approve", "allow-delete", "allow-empty-files", "fail-fast"] as const) opt(flag, args[flag] === true);
  opt("max-failed-tenants", args["max-failed-tenants"]);
  opt("tenant-parallelism", args["tenant-parallelism"]);
  opt("parallelism", args.parallelism);
  opt("refresh", args.refresh);
  opt("lock-timeout", args["lock-timeout"]);
  opt("if-applied", args["if-applied"]);
  return words.join(" ");
}

/** The rollout for programs: each tenant's row, and its apply's report as `--report` writes it for one tenant. */
function rolloutJson(result: RolloutResult): string {
  const tenants = result.tenants.map((t) => ({
    tenant: t.tenant,
    wave: t.wave,
    outcome: t.outcome,
    exit: t.exit,
    ...(t.detail ? { detail: t.detail } : {}),
    ...(t.error ? { error: t.error } : {}),
    ...(t.result?.report
      ? { report: { plan_summary: t.result.plan.summary, ...t.result.report, verification: t.result.verification, ...stateProblems(t.result) } }
      : {}),
  }));
  return `${jsonText({ kind: "rollout", tenants, ...(result.resume ? { resume: result.resume } : {}) }, 2)}\n`;
}

/**
 * The tenants `apply` rolls out: two or more that --tenant selects (names and globs). Undefined: today's
 * apply of one tenant (a glob that matches one is that tenant's name from here on).
 */
export async function rolloutSelection(args: RolloutArgs & { plan?: string }, io: Io): Promise<string[] | undefined> {
  const spec = args.tenant;
  if (!args.plan && spec !== undefined && /[*?[,]/.test(spec)) {
    const config = await projectConfig({ cwd: io.cwd, ...(args.config ? { configPath: args.config } : {}), ...(args.dir ? { dir: args.dir } : {}) });
    const names = selectTenants(config, spec);
    if (names.length >= 2) return names;
    args.tenant = names[0];
  }
  if (args.format === "json")
    throw new PimctlError("usage", "--format json prints a rollout's result (two tenants or more); for one tenant, --report FILE writes its report");
  return undefined;
}
