import type { CommandModule } from "yargs";
import { ping } from "../../workflows/index.js";
import type { Io } from "../io.js";
import { projectOptions, withProjectOptions, type GlobalArgs } from "../options.js";
import { escapeControls } from "../../base/controls.js";

export function pingCommand(io: Io): CommandModule<object, GlobalArgs> {
  return {
    command: "ping",
    describe: "Check a tenant's address and token (GET /ping)",
    builder: (y) => withProjectOptions(y).example("$0 ping --tenant prod", "Is prod reachable with its token?") as never,
    handler: async (args) => {
      const r = await ping(projectOptions(args, io));
      // The server time is the tenant's words.
      io.stdout(`${escapeControls(`ok: tenant "${r.tenant}" at ${r.baseUrl} answered in ${r.ms} ms (server time ${r.time})`)}\n`);
    },
  };
}
