/**
 * Saved plan files: written by `plan --out`, read by `apply FILE`. Reading
 * checks, in order: JSON, the published schema (schemas/plan.schema.json, the
 * first bad path named), the format's major version, then the integrity
 * digest (and HMAC when a key is configured). What the plan may do is decided
 * later, by re-planning from its basis (src/workflows/saved-plan.ts).
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { commitFiles } from "../files/atomic-files.js";
import type { ValidateFunction } from "ajv";
import { describeSchemaError, loadAjv } from "../manifest/validate.js";
import { PimctlError } from "../errors.js";
import { checkIntegrity, sealPlan } from "./integrity.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../plan/types.js";
import { shareAddresses } from "../plan/order.js";
import { jsonText } from "../base/controls.js";

/** The plan without its basis: what people and programs read (the basis only goes to --out files). */
export function publicPlan(p: Plan): Plan {
  const { basis: _basis, ...rest } = p;
  return rest;
}

/** DEL, C1 and bidi characters as `\u` escapes (src/base/controls.ts): the same plan (the digest is over the parsed body), safe to print. */
export function serialisePlan(plan: Plan): string {
  return `${jsonText(plan, 2)}\n`;
}

let validator: ValidateFunction | undefined;

/** The published plan schema, shipped beside dist/ and src/ alike. */
function planValidator(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8")) as object;
    const Ajv = loadAjv();
    validator = new Ajv({ allErrors: false, strict: false }).compile(schema);
  }
  return validator;
}

export function parsePlan(text: string, file: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new PimctlError("plan_format", `${file} is not a pimctl plan: ${(e as Error).message}`);
  }
  return checkedPlan(data, file);
}

/** Parsed JSON checked as a plan: format_version and actions, the format's major version, the published schema. */
export function checkedPlan(data: unknown, file: string): Plan {
  const version = (data as { format_version?: unknown } | null)?.format_version;
  if (typeof version !== "string" || !Array.isArray((data as { actions?: unknown }).actions)) {
    throw new PimctlError("plan_format", `${file} is not a pimctl plan (no format_version or actions)`);
  }
  const major = version.split(".")[0];
  if (major !== PLAN_FORMAT_VERSION.split(".")[0]) {
    throw new PimctlError(
      "plan_format",
      `${file} has plan format ${version}; this pimctl reads format ${PLAN_FORMAT_VERSION.split(".")[0]}.x. Re-run 'pimctl plan --out' with this version.`,
    );
  }
  const validate = planValidator();
  if (!validate(data)) {
    const first = validate.errors?.[0];
    throw new PimctlError(
      "plan_format",
      `${file} does not match the plan schema (schemas/plan.schema.json) at ${first ? describeSchemaError(first) : "(unknown path)"}`,
      {
        details: ["make a new plan with 'pimctl plan --out FILE'; saved plans are not meant to be edited"],
      },
    );
  }
  return data as Plan;
}

/** Read, validate and check the integrity of a saved plan; `hmacKey` from the environment. */
export async function readPlanFile(file: string, opts: { hmacKey?: string } = {}): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new PimctlError("io", `cannot read plan file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const plan = parsePlan(text, file);
  checkIntegrity(plan, file, opts.hmacKey);
  shareAddresses(plan.actions);
  return plan;
}

/** Atomic: a crash never leaves half a plan behind. Sealed with a digest (and an HMAC with a key). */
export async function writePlanFile(file: string, plan: Plan, opts: { hmacKey?: string } = {}): Promise<void> {
  await commitFiles([{ file, text: serialisePlan(sealPlan(plan, opts.hmacKey)) }]);
}
