/**
 * `pimctl apply --tenant GLOB` when it selects two tenants or more: every tenant planned, the plans
 * shown and approved once, then the rollout (src/workflows/rollout.ts) and its one table. One
 * tenant never comes here: it is today's apply, byte for byte.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { readFile } from "node:fs/promises";
import { planRollout, readRolloutFiles } from "../../workflows/rollout-plan.js";
import { projectConfig } from "../../workflows/project.js";
import { selectTenants } from "../../config/select.js";
import { isGlob } from "../../base/name-globs.js";
import { renderFleet } from "../../render/fleet/index.js";
import { TENANT_PARALLELISM, type Selection } from "../../workflows/fleet-plan.js";
import { rollout, type RolloutResult, type RolloutTenant } from "../../workflows/rollout.js";
import type { FleetPlan } from "../../plan/fleet.js";
import { renderRolloutMarkdown, renderRolloutTable } from "../../render/rollout.js";
import { appendStepSummary } from "../pipeline-output.js";
import { hasChanges } from "../../plan/types.js";
import { PimctlError } from "../../errors.js";
import { escapeControls, jsonText } from "../../base/controls.js";
import { plural } from "../../plural.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import type { Io } from "../io.js";
import { durationOption, projectOptions, say, warnLine, type GlobalArgs } from "../options.js";
import { applyReportJson, applyResultText } from "../../render/apply-result.js";
import { commandLine, type CommandOption } from "../../base/shell-words.js";
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

/** Where a rollout's plans come from: the tenants --tenant selects (planned now), or saved files (a fleet file, or several tenants' plan files). */
export type RolloutSource = { selection: Selection } | { files: string[] };

/**
 * Plan every tenant (or read the fleet file), show the review, ask once (unless --auto-approve or a
 * file), roll out, print the table; exit 4 unless every tenant converged.
 */
export async function applyRollout(args: RolloutArgs, io: Io, source: RolloutSource, extra: BundleHooks["options"]): Promise<void> {
  if (args["dry-run"])
    throw new PimctlError(
      "usage",
      `--dry-run shows the requests of one tenant: ${"files" in source ? "give one tenant's saved plan" : "name one with --tenant"}`,
    );
  const parallelism = positive(args["tenant-parallelism"], "--tenant-parallelism") ?? TENANT_PARALLELISM;
  const maxFailed = positive(args["max-failed-tenants"], "--max-failed-tenants") ?? 1;
  const base = { ...projectOptions(args, io), ...extra, warn: warnLine(io) };
  const chosen = {
    ...(args.target ? { targets: args.target } : {}),
    ...(args.exclude ? { excludes: args.exclude } : {}),
    allowDelete: args["allow-delete"] === true,
    allowEmptyFiles: args["allow-empty-files"] === true,
  };
  const saved = "files" in source ? await readRolloutFiles(source.files, { ...base, ...chosen }) : undefined;
  const fleet = "selection" in source ? await planRollout({ ...base, ...chosen, tenantParallelism: parallelism }, source.selection) : saved!.fleet;
  const asked = !saved && !args["auto-approve"];
  if (!args.quiet || asked)
    io.stderr(renderFleet(fleet, "text", { color: false, ...(args.summary ? { summary: true } : args.compact ? { compact: true } : {}) }));
  if (asked && !(await approved(fleet, io))) {
    io.stderr("Apply cancelled; nothing was changed.\n");
    throw new ExitWith(EXIT.error);
  }
  const result = await rollout(fleet, {
    ...base,
    ...(saved ? { sourceOf: saved.sourceOf } : {}),
    maxFailedTenants: maxFailed,
    tenantParallelism: parallelism,
    resumeCommand: resumeCommand(args, "files" in source ? source.files : []),
    ...(saved ? { replanCommand: (tenants: readonly string[]) => replanCommand(args, fleet, saved.sourceOf, tenants) } : {}),
    failFast: args["fail-fast"] === true,
    ...(args["lock-timeout"] ? { lockTimeoutMs: durationOption(args["lock-timeout"]) } : {}),
    ...(args["if-applied"] ? { ifApplied: args["if-applied"] } : {}),
    ...(args["backup-profile"] !== undefined ? { backupProfile: args["backup-profile"] } : {}),
    onTenantStart: (tenant, wave) => say(args, io, `${tenant}: applying (wave ${wave})`),
    onTenantEnd: (row) => tenantEnded(row, args, io),
  });
  io.stderr(`\n${renderRolloutTable(result.tenants, result)}`);
  appendStepSummary(io, () => renderRolloutMarkdown(result.tenants, result));
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

async function approved(fleet: FleetPlan, io: Io): Promise<boolean> {
  const changing = fleet.tenants.filter((t) => t.plan && hasChanges(t.plan)).length;
  const failed = fleet.tenants.filter((t) => !t.plan).length;
  const question =
    `\nApply to ${plural(changing, "tenant")} with changes, in ${plural(fleet.waves.length, "wave")}` +
    `${failed ? ` (${plural(failed, "tenant")} could not be planned: the rollout stops at the first)` : ""}? Only 'yes' is accepted: `;
  return (await io.ask(question)).trim() === "yes";
}

/**
 * A tenant's end as it happens: its outcome line, then what went wrong, as `apply` says it for one
 * tenant (its failed actions, verification, state and lock: src/render/apply-result.ts), indented under it.
 */
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
  if (!row.result?.report || row.outcome === "applied") return;
  for (const l of applyResultText(row.result, { dryRun: false, savedPlan: true, inRollout: true, cwd: io.cwd, tenantFlag: row.tenant })) {
    const indented = l.text.replace(/^(?=.)/gm, "  ");
    if (l.to === "note") say(args, io, indented);
    else io.stderr(indented);
  }
}

/** The same command, as a person types it: re-run, it skips the tenants already at their plan. */
export function resumeCommand(args: RolloutArgs, files: readonly string[] = []): string {
  const flags = (["auto-approve", "allow-delete", "allow-empty-files", "fail-fast"] as const).map((flag): CommandOption => [flag, args[flag] === true]);
  return commandLine(
    ["pimctl", "apply", ...files],
    [
      ["config", args.config],
      ["dir", args.dir],
      ["tenant", args.tenant],
      ...(args.target ?? []).map((t): CommandOption => ["target", t]),
      ...(args.exclude ?? []).map((e): CommandOption => ["exclude", e]),
      ...flags,
      ["max-failed-tenants", args["max-failed-tenants"]],
      ["tenant-parallelism", args["tenant-parallelism"]],
      ["parallelism", args.parallelism],
      ["refresh", args.refresh],
      ["lock-timeout", args["lock-timeout"]],
      ["if-applied", args["if-applied"]],
      ["backup-profile", args["backup-profile"]],
    ],
  );
}

/**
 * New plans for the files that hold the tenants whose saved plan cannot converge: each such file
 * planned again whole (every tenant it holds, into the same name) with the selectors and permission
 * to delete its plans were made with (their basis), so the same apply runs after and applies what
 * the review would have covered.
 */
function replanCommand(args: RolloutArgs, fleet: FleetPlan, sourceOf: (tenant: string) => string, deadEnds: readonly string[]): string {
  const files = [...new Set(deadEnds.map(sourceOf))];
  return files
    .map((file) => {
      const held = fleet.tenants.filter((t) => sourceOf(t.tenant) === file);
      const basis = held.find((t) => t.plan?.basis)?.plan?.basis;
      return commandLine(
        ["pimctl", "plan"],
        [
          ["tenant", held.map((t) => t.tenant).join(",")],
          ["config", args.config],
          ["dir", args.dir],
          ...(basis?.targets ?? []).map((t): CommandOption => ["target", t]),
          ...(basis?.excludes ?? []).map((e): CommandOption => ["exclude", e]),
          ["allow-delete", basis?.allow_delete === true],
          ["out", file],
        ],
      );
    })
    .join(" && ");
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
    ...(t.result?.report ? { report: JSON.parse(applyReportJson(t.result)) as unknown } : {}),
  }));
  const next = { ...(result.resume ? { resume: result.resume } : {}), ...(result.replan ? { replan: result.replan } : {}) };
  return `${jsonText({ kind: "rollout", tenants, ...next }, 2)}\n`;
}

/**
 * What `apply` rolls out: a saved fleet file, several saved plan files (a CI matrix's, one per tenant,
 * or fleet files), or two tenants or more that --tenant selects (names and globs). Undefined: today's
 * apply of one tenant (a glob that matches one is that tenant's name from here on).
 */
export async function rolloutSource(args: RolloutArgs & { plans?: string[] }, io: Io): Promise<RolloutSource | undefined> {
  const spec = args.tenant;
  const files = args.plans ?? [];
  if (files.length > 1 || (files.length === 1 && (await isFleetFile(path.resolve(io.cwd, files[0]!))))) {
    const whole =
      files.length > 1
        ? `the ${files.length} saved plans are applied whole, each to the tenant it was made for (drop --tenant)`
        : `${files[0]!} is a fleet plan: it is applied whole, to the tenants it was made for (drop --tenant)`;
    if (spec !== undefined) throw new PimctlError("usage", whole);
    return { files };
  }
  if (!files.length && spec !== undefined && (spec.includes(",") || isGlob(spec))) {
    const config = await projectConfig({ cwd: io.cwd, ...(args.config ? { configPath: args.config } : {}), ...(args.dir ? { dir: args.dir } : {}) });
    const tenants = selectTenants(config, spec);
    if (tenants.length >= 2) return { selection: { config, tenants } };
    args.tenant = tenants[0];
  }
  if (args.format === "json")
    throw new PimctlError("usage", "--format json prints a rollout's result (two tenants or more); for one tenant, --report FILE writes its report");
  return undefined;
}

/** A saved fleet plan (`plan --tenant GLOB --out FILE`), told from a single tenant's plan by its kind; anything else is today's apply's to read and judge. */
async function isFleetFile(file: string): Promise<boolean> {
  try {
    return (JSON.parse(await readFile(file, "utf8")) as { kind?: unknown } | null)?.kind === "fleet";
  } catch {
    return false;
  }
}
