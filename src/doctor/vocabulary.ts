/**
 * One vocabulary: doctor names readings exactly as the emulator's switches table does
 * (src/emulator/switches.ts), so what it finds on a real tenant starts an emulator that reads
 * API v1 the same way: as `pimctl emulator` options, or as a file (`--switches FILE`: doctor's
 * JSON, a support bundle, or a bare object of switches).
 */
import { DEFAULT_SWITCHES, SWITCHES, type EmulatorSwitches } from "../emulator/switches.js";
import { PimctlError } from "../errors.js";
import type { SwitchName } from "./types.js";

/** The emulator clamps a larger `limit` to this under maxPageSize's default reading (src/emulator/request.ts MAX_LIMIT). */
export const MAX_PAGE_LIMIT_CLAMP = 1000;

export const SWITCH_NAMES = Object.keys(SWITCHES) as SwitchName[];

/** A switch's value as JSON writes it: maxPageSize's default (clamp at 1000) is null. */
export function jsonReading(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** The `pimctl emulator` arguments that read API v1 as these switches say; defaults are left out. */
export function emulatorOptions(switches: Partial<EmulatorSwitches>): string[] {
  const out: string[] = [];
  for (const name of SWITCH_NAMES) {
    if (!(name in switches)) continue;
    const value = switches[name];
    if (value === DEFAULT_SWITCHES[name] || value === undefined) continue;
    const option = SWITCHES[name].option;
    if (typeof value === "boolean") out.push(value ? option.replace(/^--no-/, "--") : option.startsWith("--no-") ? option : `--no-${option.slice(2)}`);
    else out.push(option, String(value));
  }
  return out;
}

/**
 * The switches of a file: doctor's `--format json` report or a support bundle (their
 * `switches`), or a bare object of switches. Every name and reading is checked against the
 * table: a typo is an error naming it, never an emulator that quietly reads the default.
 */
export function parseSwitches(text: string, file: string): Partial<EmulatorSwitches> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new PimctlError("usage", `--switches ${file}: not JSON (give pimctl doctor --format json output, a bundle, or an object of switches)`);
  }
  const obj = data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  const switches = obj && obj.switches !== null && typeof obj.switches === "object" ? (obj.switches as Record<string, unknown>) : obj;
  if (!switches) throw new PimctlError("usage", `--switches ${file}: expected an object of switches`);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(switches)) {
    if (!(SWITCH_NAMES as string[]).includes(name))
      throw new PimctlError("usage", `--switches ${file}: "${name}" is not a switch (the switches: ${SWITCH_NAMES.join(", ")})`);
    const row = SWITCHES[name as SwitchName];
    if (name === "maxPageSize") {
      if (value !== null && !(Number.isInteger(value) && (value as number) > 0))
        throw new PimctlError("usage", `--switches ${file}: maxPageSize takes a positive integer, or null for the clamp at ${MAX_PAGE_LIMIT_CLAMP}`);
      out[name] = value === null ? undefined : value;
      continue;
    }
    if (!(row.readings as readonly unknown[] | undefined)?.includes(value))
      throw new PimctlError(
        "usage",
        `--switches ${file}: ${name} takes ${(row.readings ?? []).map((r) => JSON.stringify(r)).join(", ")}, not ${JSON.stringify(value)}`,
      );
    out[name] = value;
  }
  return out as Partial<EmulatorSwitches>;
}
