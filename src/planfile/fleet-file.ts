/**
 * The saved fleet plan (`plan --tenant 'prod-*' --out fleet.json`): every tenant's plan sealed on
 * its own as `plan --out` seals one (digest, HMAC with a key), so each verifies alone, inside a
 * wrapper whose digest covers which tenants it holds, their plan digests, errors and exit codes,
 * and the waves: a tenant's plan removed, swapped for another file's or moved to another wave is
 * refused. `readPlanFiles` reads one or many files, single-tenant plans (a CI matrix's jobs) or
 * fleet files, into one FleetPlan.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import path from "node:path";
import type { ValidateFunction } from "ajv";
import { commitFiles } from "../files/atomic-files.js";
import { describeSchemaError, loadAjv } from "../manifest/validate.js";
import { PimctlError } from "../errors.js";
import { canonicalJson } from "../plan/canonical-json.js";
import { FLEET_FORMAT_VERSION, byTenant, planExit, wavesProblem, type FleetPlan, type FleetTenant } from "../plan/fleet.js";
import { shareAddresses } from "../plan/order.js";
import type { Plan } from "../plan/types.js";
import { jsonText } from "../base/controls.js";
import { checkIntegrity, checkSignature, hmacOf, sealPlan } from "./integrity.js";
import { checkedPlan } from "./file.js";

/** The wrapper's canonical body: what the fleet holds, each plan by its own digest (which covers the plan's body). */
function fleetBody(fleet: FleetPlan): string {
  const list = fleet.tenants.map((t) => ({ tenant: t.tenant, plan: t.plan?.integrity?.digest ?? null, error: t.error ?? null, exit: t.exit }));
  return canonicalJson({ format_version: fleet.format_version, kind: fleet.kind, tenants: list, waves: fleet.waves });
}

/** The wrapper's digest. */
export function fleetDigest(fleet: FleetPlan): string {
  return `sha256:${createHash("sha256").update(fleetBody(fleet)).digest("hex")}`;
}

/** Every tenant's plan sealed as `plan --out` seals it, then the wrapper over the sealed plans. */
export function sealFleet(fleet: FleetPlan, hmacKey: string | undefined): FleetPlan {
  const tenants = fleet.tenants.map((t) => (t.plan ? { ...t, plan: sealPlan(t.plan, hmacKey) } : t));
  const sealed: FleetPlan = { format_version: fleet.format_version, kind: "fleet", tenants, waves: fleet.waves };
  // The wrapper is signed too: without it, whoever lacks the key could still drop a tenant from the waves or reorder them.
  return { ...sealed, integrity: { digest: fleetDigest(sealed), ...(hmacKey ? { hmac: hmacOf(fleetBody(sealed), hmacKey) } : {}) } };
}

/** Atomic, as a single plan file is; DEL, C1 and bidi characters as `\u` escapes (the parsed body is the same). */
export async function writeFleetFile(file: string, fleet: FleetPlan, opts: { hmacKey?: string } = {}): Promise<void> {
  await commitFiles([{ file, text: `${jsonText(sealFleet(fleet, opts.hmacKey), 2)}\n` }]);
}

let validator: ValidateFunction | undefined;

/** schemas/fleet-plan.schema.json, whose tenants' plans are schemas/plan.schema.json's. */
function fleetValidator(): ValidateFunction {
  if (!validator) {
    const load = (name: string) => JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), "utf8")) as object;
    const Ajv = loadAjv();
    const ajv = new Ajv({ allErrors: false, strict: false });
    ajv.addSchema(load("plan.schema.json"));
    validator = ajv.compile(load("fleet-plan.schema.json"));
  }
  return validator;
}

/** A fleet file's JSON checked: its format's major version, the schema, the wrapper's digest, then each tenant's plan's seal. */
export function parseFleet(data: { format_version?: unknown }, file: string, hmacKey: string | undefined): FleetPlan {
  const version = typeof data.format_version === "string" ? data.format_version : "";
  const major = FLEET_FORMAT_VERSION.split(".")[0];
  if (version.split(".")[0] !== major) {
    throw new PimctlError("plan_format", `${file} has fleet plan format ${version || "(none)"}; this pimctl reads format ${major}.x. Plan the fleet again`);
  }
  const validate = fleetValidator();
  if (!validate(data)) {
    const first = validate.errors?.[0];
    throw new PimctlError(
      "plan_format",
      `${file} does not match the fleet plan schema (schemas/fleet-plan.schema.json) at ${first ? describeSchemaError(first) : "(unknown path)"}`,
      { details: ["make a new plan with 'pimctl plan --tenant GLOB --out FILE'; saved plans are not meant to be edited"] },
    );
  }
  const fleet = data as FleetPlan;
  checkFleetDigest(fleet, file);
  checkFleetHmac(fleet, file, hmacKey);
  const waves = wavesProblem(fleet);
  if (waves) throw new PimctlError("plan_integrity", `${file}: ${waves}. Plan the fleet again; never edit a saved plan`);
  for (const t of fleet.tenants) {
    if (!t.plan) continue;
    if (t.plan.tenant !== t.tenant) throw new PimctlError("plan_integrity", `${file}: the plan under tenant "${t.tenant}" was made for "${t.plan.tenant}"`);
    checkIntegrity(t.plan, `${file} (tenant ${t.tenant})`, hmacKey);
    shareAddresses(t.plan.actions);
  }
  return fleet;
}

function checkFleetDigest(fleet: FleetPlan, file: string): void {
  if (!fleet.integrity) {
    throw new PimctlError(
      "plan_integrity",
      `${file} has no integrity digest; save fleet plans with 'pimctl plan --tenant GLOB --out FILE' and use them unedited`,
    );
  }
  const digest = fleetDigest(fleet);
  if (fleet.integrity.digest !== digest) {
    throw new PimctlError(
      "plan_integrity",
      `${file} was edited after it was saved: its list of tenants (or their plans, errors or waves) does not match its digest. Plan the fleet again; ` +
        `never edit a saved plan`,
      { details: [`recorded ${fleet.integrity.digest}`, `computed ${digest}`] },
    );
  }
}

/** The wrapper's signature, checked as a single plan's is (integrity.ts). */
function checkFleetHmac(fleet: FleetPlan, file: string, key: string | undefined): void {
  checkSignature(file, fleet.integrity?.hmac, fleetBody(fleet), key, {
    noun: "fleet plan",
    subject: "the fleet's signature",
    remake: "Plan the fleet with the key set",
    edited: "its tenants or waves were edited",
  });
}

export interface PlanFilesOptions {
  hmacKey?: string;
  /** Where relative names are read from (messages name the files as given). */
  cwd?: string;
  /** The waves of the tenants read (config `rollout:`): without it, a single fleet file's own, else one wave of all. */
  waves?: (tenants: readonly string[]) => string[][];
}

/**
 * One or many saved files, single-tenant plans or fleet files, as one FleetPlan: every file checked
 * as apply checks it (schema, digest, HMAC), tenants sorted; a tenant in two files is refused,
 * naming both. A single-tenant file's exit code is the plan's own under the default rules.
 */
export async function readPlanFiles(files: readonly string[], opts: PlanFilesOptions = {}): Promise<FleetPlan> {
  return (await readPlanFilesFrom(files, opts)).fleet;
}

/** readPlanFiles, with the file each tenant's plan was read from (apply names it when the tenant's plan is refused). */
export async function readPlanFilesFrom(files: readonly string[], opts: PlanFilesOptions = {}): Promise<{ fleet: FleetPlan; fileOf: Map<string, string> }> {
  const from = new Map<string, string>();
  const tenants: FleetTenant[] = [];
  const fleets: FleetPlan[] = [];
  for (const file of files) {
    const read = await readOne(file, opts);
    if ("kind" in read) fleets.push(read);
    for (const t of "kind" in read ? read.tenants : [{ tenant: read.tenant, plan: read, exit: planExit(read) }]) {
      const earlier = from.get(t.tenant);
      if (earlier) throw new PimctlError("usage", `tenant "${t.tenant}" has a plan in both ${earlier} and ${file}: give each tenant's plan once`);
      from.set(t.tenant, file);
      tenants.push(t);
    }
  }
  tenants.sort(byTenant);
  const names = tenants.map((t) => t.tenant);
  const waves = opts.waves?.(names) ?? (fleets.length === 1 && fleets[0]!.tenants.length === tenants.length ? fleets[0]!.waves : [names]);
  return { fleet: { format_version: FLEET_FORMAT_VERSION, kind: "fleet", tenants, waves }, fileOf: from };
}

async function readOne(file: string, { hmacKey, cwd }: PlanFilesOptions): Promise<Plan | FleetPlan> {
  let text: string;
  try {
    text = await readFile(path.resolve(cwd ?? ".", file), "utf8");
  } catch (e) {
    throw new PimctlError("io", `cannot read plan file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new PimctlError("plan_format", `${file} is not a pimctl plan: ${(e as Error).message}`);
  }
  if ((data as { kind?: unknown } | null)?.kind === "fleet") return parseFleet(data as { format_version?: unknown }, file, hmacKey);
  const plan = checkedPlan(data, file);
  checkIntegrity(plan, file, hmacKey);
  shareAddresses(plan.actions);
  return plan;
}
