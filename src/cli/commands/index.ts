import type { CommandModule } from "yargs";
import type { Io } from "../io.js";

/** Every command, in the order --help lists them. Each module owns its options and handler. */
export function commands(io: Io): CommandModule[] {
  void io;
  return [];
}
