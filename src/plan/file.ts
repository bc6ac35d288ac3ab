/** Saved plan files: written by `plan --out`, read by `apply FILE`, checked against their format version. */
import { readFile, writeFile, rename } from "node:fs/promises";
import { PimctlError } from "../errors.js";
import { PLAN_FORMAT_VERSION, type Plan } from "./types.js";

/** The plan without its basis: what people and programs read (the basis only goes to --out files). */
export function publicPlan(p: Plan): Plan {
  const { basis: _basis, ...rest } = p;
  return rest;
}

export function serialisePlan(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

export function parsePlan(text: string, file: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new PimctlError("plan_format", `${file} is not a pimctl plan: ${(e as Error).message}`);
  }
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
  return data as Plan;
}

export async function readPlanFile(file: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new PimctlError("io", `cannot read plan file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parsePlan(text, file);
}

/** Atomic: a crash never leaves half a plan behind. */
export async function writePlanFile(file: string, plan: Plan): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, serialisePlan(plan), "utf8");
  await rename(tmp, file);
}
