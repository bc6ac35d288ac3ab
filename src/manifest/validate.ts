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

/** The keyword of one error standing for a value that matched none of a oneOf's or anyOf's plain alternatives. */
const ALTERNATIVES = "alternatives";

/** What a value may be, in the words of a message: true, false, "owned", a list. */
function allowedValues(e: ErrorObject): string[] | undefined {
  if (e.keyword === "type") {
    const types = [(e.params as { type: unknown }).type].flat();
    return types.flatMap((t) => (t === "boolean" ? ["true", "false"] : [describeType(t)]));
  }
  if (e.keyword === "const") return [JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)];
  if (e.keyword === "enum") return (e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v));
  return undefined;
}

/**
 * A value that is none of a oneOf's (or anyOf's) alternatives, each a type, a constant or a list
 * of values (`prune: { categories: yes }` against `true | false | "owned"`): one error naming every
 * allowed value, instead of one per alternative ("must be true or false", "must be equal to
 * constant"), each of which leaves the others out. Alternatives with fields of their own keep
 * their errors: those say which field is wrong.
 */
function alternativesMerged(errors: ErrorObject[]): ErrorObject[] {
  let out = errors;
  for (const summary of errors.filter((e) => e.keyword === "oneOf" || e.keyword === "anyOf")) {
    const branches = out.filter((e) => e !== summary && e.schemaPath.startsWith(`${summary.schemaPath}/`));
    const allowed = branches.map((b) => (b.instancePath === summary.instancePath ? allowedValues(b) : undefined));
    if (!branches.length || allowed.some((a) => a === undefined)) continue;
    const merged: ErrorObject = { ...summary, keyword: ALTERNATIVES, params: { allowed: [...new Set(allowed.flat())] } };
    out = out.filter((e) => !branches.includes(e) && e !== summary).concat(merged);
  }
  return out;
}

/** ajv errors -> PimctlErrors, one per problem, at the right line. */
export function schemaErrors(validate: ValidateFunction, parsed: ParsedYaml, data: unknown): PimctlError[] {
  if (validate(data)) return [];
  const out: PimctlError[] = [];
  const seen = new Set<string>();
  const errors = alternativesMerged((validate.errors ?? []) as ErrorObject[]);
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
      case ALTERNATIVES:
        message = `"${name}" is ${JSON.stringify(e.data)}, which is not one of: ${(e.params as { allowed: string[] }).allowed.join(", ")}`;
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

/** "/actions/3/refs/self" -> "actions[3].refs.self" */
function jsonPath(pointer: string): string {
  const path = pointer
    .split("/")
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : !/^[A-Za-z_]\w*$/.test(p) ? `${acc}[${JSON.stringify(p)}]` : acc ? `${acc}.${p}` : p), "");
  return path || "(top level)";
}

/** One schema error of a JSON document (a saved plan, a ledger) as "path: what is wrong". */
export function describeSchemaError(e: ErrorObject): string {
  const at = jsonPath(e.instancePath);
  // A key of a map that breaks its propertyNames rule (a ledger's "brand:<id>", a prune kind).
  if (e.propertyName !== undefined) {
    const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
    return `${at}: key ${JSON.stringify(e.propertyName)} ${allowed ? `is none of ${allowed.join(", ")}` : (e.message ?? e.keyword)}`;
  }
  switch (e.keyword) {
    case "required":
      return `${at}: missing "${(e.params as { missingProperty: string }).missingProperty}"`;
    case "additionalProperties":
      return `${at}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    case "dependencies":
      return `${at}: a saved plan (with basis) needs "${(e.params as { missingProperty: string }).missingProperty}"`;
    default:
      return `${at}: ${e.message ?? e.keyword}`;
  }
}
