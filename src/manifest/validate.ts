/** JSON Schema validation (ajv) with errors people can act on: file:line:col, did-you-mean. */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { PimctlError, closeNames } from "../errors.js";
import type { ParsedYaml } from "./yaml.js";

/** The options every validator is made with, compiled here or ahead of time (write-validators.ts). */
export const AJV_OPTIONS = { allErrors: true, verbose: true, strict: false } as const;

/** ajv itself, loaded only when something is compiled now: the build's validators do not need it. */
export function loadAjv(): typeof import("ajv").Ajv {
  return (createRequire(import.meta.url)("ajv") as typeof import("ajv")).Ajv;
}

export function compile(schema: object): ValidateFunction {
  const Ajv = loadAjv();
  return new Ajv(AJV_OPTIONS).compile(schema);
}

/**
 * The validator the build generated (dist/manifest/validators.generated.js), or
 * one compiled now where there is none (tests running the TypeScript sources).
 */
export async function validatorFor(name: "manifest" | "config" | "ledger" | "ledger_v1", schema: object): Promise<ValidateFunction> {
  const generated = "./validators.generated.js";
  try {
    const mod = (await import(generated)) as Record<string, ValidateFunction | undefined>;
    if (mod[name]) return mod[name];
  } catch {
    // not built: compile below
  }
  return compile(schema);
}

function field(instancePath: string): string {
  const parts = instancePath.split("/").filter(Boolean);
  return parts.length ? parts[parts.length - 1]!.replace(/~1/g, "/").replace(/~0/g, "~") : "(top level)";
}

/** "/attributes/0/values/1" -> "attributes[0].values[1]" */
function where(instancePath: string): string {
  return instancePath
    .split("/")
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");
}

function describeType(t: unknown): string {
  const list = Array.isArray(t) ? t : [t];
  return list
    .map((x) =>
      x === "integer"
        ? "a whole number"
        : x === "boolean"
          ? "true or false"
          : x === "null"
            ? "null"
            : x === "array"
              ? "a list"
              : x === "object"
                ? "a mapping"
                : `a ${x}`,
    )
    .join(" or ");
}

/** ajv errors -> PimctlErrors, one per problem, at the right line. */
export function schemaErrors(validate: ValidateFunction, parsed: ParsedYaml, data: unknown): PimctlError[] {
  if (validate(data)) return [];
  const out: PimctlError[] = [];
  const seen = new Set<string>();
  const errors = (validate.errors ?? []) as ErrorObject[];
  // oneOf/anyOf summaries repeat what their branches said.
  const concrete = errors.filter((e) => e.keyword !== "oneOf" && e.keyword !== "anyOf" && e.keyword !== "if");
  for (const e of concrete.length ? concrete : errors) {
    let message: string;
    let ptr = e.instancePath;
    const details: string[] = [];
    const name = field(e.instancePath);
    switch (e.keyword) {
      case "additionalProperties": {
        const key = (e.params as { additionalProperty: string }).additionalProperty;
        ptr = `${e.instancePath}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}#key`;
        const allowed = Object.keys(((e.parentSchema as { properties?: object } | undefined)?.properties ?? {}) as object);
        const close = closeNames(key, allowed, 1);
        message = `unknown field "${key}"${e.instancePath ? ` in ${where(e.instancePath)}` : ""}`;
        details.push(close.length ? `did you mean "${close[0]}"?` : `allowed fields: ${allowed.join(", ")}`);
        break;
      }
      case "required":
        message = `missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
        break;
      case "type":
        message = `"${name}" must be ${describeType((e.params as { type: unknown }).type)}`;
        break;
      case "enum": {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
        const close = typeof e.data === "string" ? closeNames(e.data, allowed, 1) : [];
        message = `"${name}" is ${JSON.stringify(e.data)}, which is not one of: ${allowed.join(", ")}`;
        if (close.length) details.push(`did you mean "${close[0]}"?`);
        break;
      }
      case "minLength":
        message = `"${name}" must not be empty`;
        break;
      case "uniqueItems":
        message = `"${name}" lists the same entry twice`;
        break;
      case "pattern": {
        const pattern = (e.params as { pattern: string }).pattern;
        message =
          pattern === "\\S"
            ? `"${name}" must not be empty or only whitespace`
            : pattern.startsWith("^\\d{4}-")
              ? `"${name}" is ${JSON.stringify(e.data)}, which is not an ISO 8601 date (2025-03-01) or date-time (2025-03-01T08:00:00Z)`
              : `"${name}" ${e.message ?? "is invalid"}`;
        break;
      }
      case "minimum":
      case "maximum":
        message = `"${name}" ${e.message ?? "is out of range"}`;
        break;
      default:
        message = `"${name}" ${e.message ?? "is invalid"}`;
    }
    const key = `${ptr}\0${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(new PimctlError("schema", message, { location: parsed.at(ptr), details }));
  }
  return out;
}
