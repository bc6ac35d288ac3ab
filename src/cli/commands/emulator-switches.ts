/**
 * The `pimctl emulator` options for the readings of API v1, generated from the one table
 * (src/emulator/switches.ts): a switch added there is an option here, with its readings as
 * choices and its default in the help, without a line written in this file.
 */
import type { Options } from "yargs";
import { SWITCHES, type EmulatorSwitches } from "../../emulator/switches.js";

type SwitchName = keyof EmulatorSwitches;
const NAMES = Object.keys(SWITCHES) as SwitchName[];
const GROUP = "Where API v1 is silent:";

/** The yargs key of a switch's option: `--no-version-fallback` is yargs' boolean `version-fallback`. */
const argKey = (name: SwitchName): string => SWITCHES[name].option.replace(/^--(no-)?/, "");

/** The option as yargs takes it: a flag for a boolean, choices for readings, a number for a number. */
function optionOf(name: SwitchName): Options {
  const row = SWITCHES[name] as { default: unknown; readings?: readonly unknown[]; help: string };
  if (typeof row.default === "boolean") return { type: "boolean", describe: `${row.help} (default: ${row.default ? "on" : "off"})`, group: GROUP };
  if (!row.readings) return { type: "number", describe: row.help, group: GROUP };
  // A string even when it reads as a number (--search-empty 404): yargs would make it 404, which no choice equals.
  return { type: "string", choices: row.readings as string[], describe: `${row.help} (default: ${String(row.default)})`, group: GROUP };
}

/** Every switch of the table as an option, in the table's order (for yargs' `.options()`). */
export function switchOptions(): Record<string, Options> {
  return Object.fromEntries(NAMES.map((name) => [argKey(name), optionOf(name)]));
}

/** The switches given on the command line; one not given is left out (the file's, else the table's default, holds). */
export function givenSwitches(args: Record<string, unknown>): Partial<EmulatorSwitches> {
  const given = NAMES.map((name) => [name, args[argKey(name)]] as const).filter(([, v]) => v !== undefined);
  return Object.fromEntries(given) as Partial<EmulatorSwitches>;
}
