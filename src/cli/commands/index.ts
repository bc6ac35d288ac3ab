import type { CommandModule } from "yargs";
import type { Io } from "../io.js";
import { applyCommand } from "./apply.js";
import { demoCommand } from "./demo.js";
import { diffCommand } from "./diff.js";
import { doctorCommand } from "./doctor.js";
import { driftCommand } from "./drift.js";
import { emulatorCommand } from "./emulator.js";
import { exportCommand } from "./export.js";
import { initCommand } from "./init.js";
import { pingCommand } from "./ping.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";
import { stateCommand } from "./state.js";
import { tenantsCommand } from "./tenants.js";
import { translationsCommand } from "./translations.js";
import { validateCommand } from "./validate.js";

/** Every command, in the order --help lists them. Each module owns its options and handler. */
export function commands(io: Io, opts: { parseOnly?: boolean } = {}): CommandModule[] {
  return [
    validateCommand(io),
    planCommand(io),
    applyCommand(io),
    diffCommand(io),
    driftCommand(io),
    showCommand(io),
    stateCommand(io, opts),
    translationsCommand(io, opts),
    tenantsCommand(io),
    exportCommand(io),
    pingCommand(io),
    doctorCommand(io),
    initCommand(io),
    demoCommand(io),
    emulatorCommand(io),
  ] as unknown as CommandModule[];
}
