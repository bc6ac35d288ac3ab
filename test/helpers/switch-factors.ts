/**
 * The emulator's switches as a test's factors, generated from the one table (SWITCHES in
 * src/emulator/switches.ts): each switch with what the tests try of it, its default first (every
 * reading; for a number, its default and samples). A switch added to the table is a factor of
 * the readings matrix and of the replay's recorded runs by itself.
 */
import { SWITCHES, switchReadings, type EmulatorSwitches } from "../../src/emulator/switches.js";

export const SWITCH_NAMES = Object.keys(SWITCHES) as Array<keyof EmulatorSwitches>;

/** SWITCH_LEVELS[i]: the values tried of SWITCH_NAMES[i], its default first. */
export const SWITCH_LEVELS: Array<readonly unknown[]> = SWITCH_NAMES.map((name) => {
  const values: readonly unknown[] = switchReadings(name);
  const first = SWITCHES[name].default;
  return [first, ...values.filter((v) => v !== first)];
});

/** The switches of a row of level indices (one per switch, in SWITCH_NAMES' order). */
export const switchesOf = (row: readonly number[]): Partial<EmulatorSwitches> =>
  Object.fromEntries(SWITCH_NAMES.map((n, i) => [n, SWITCH_LEVELS[i]![row[i]!]])) as Partial<EmulatorSwitches>;

/** Each reading off its default alone, every other switch on its default. */
export const eachReadingAlone = (): number[][] =>
  SWITCH_NAMES.flatMap((_, i) => SWITCH_LEVELS[i]!.slice(1).map((_l, k) => SWITCH_NAMES.map((_n, j) => (j === i ? k + 1 : 0))));
