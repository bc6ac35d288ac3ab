import type { CommandModule } from "yargs";
import { doctor } from "../../workflows/doctor.js";
import { doctorProblems, renderDoctorText } from "../../render/doctor.js";
import { jsonText } from "../../base/controls.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import type { Io } from "../io.js";
import { projectOptions, say, withProjectOptions } from "../options.js";
import { bundled, withBundle, type BundleArgs } from "../bundle.js";
import { replayBundle } from "../../workflows/replay.js";
import { escapeControls } from "../../base/controls.js";

interface DoctorArgs extends BundleArgs {
  format: "text" | "json";
  "write-probes"?: boolean;
  "remove-leftovers"?: boolean;
  "export-profile"?: number;
  "probe-image"?: string;
  pings: number;
  replay?: string;
}

export function doctorCommand(io: Io): CommandModule<object, DoctorArgs> {
  return {
    command: "doctor",
    describe: "First contact with a tenant: how it reads API v1 (readings named as the emulator's switches), with the evidence",
    builder: (y) =>
      withBundle(withProjectOptions(y))
        .option("format", {
          alias: "f",
          choices: ["text", "json"] as const,
          default: "text" as const,
          describe: "text for people; json: the report, whose switches `pimctl emulator --switches FILE` reads",
          group: "Output and network:",
        })
        .option("write-probes", {
          type: "boolean",
          describe:
            "Also write a few records named pimctl-doctor-… to see what only writes show, and delete them after (a staging tenant; refused on " +
            "one the config marks production: true)",
        })
        .option("remove-leftovers", { type: "boolean", describe: "Remove the records earlier doctor runs left (found by their prefix); probe nothing" })
        .option("export-profile", { type: "number", describe: "With --write-probes: export with this profile to see how the file is handed out" })
        .option("probe-image", { type: "string", describe: "With --write-probes: the image_url of the probe asset (a tenant that re-hosts fetches it)" })
        .option("pings", { type: "number", default: 5, describe: "Pings that measure the latency" })
        .option("replay", {
          type: "string",
          describe: "Send a support bundle's requests again to the tenant (an emulator on this machine only) and show what answers differently",
        })
        .conflicts("remove-leftovers", "write-probes")
        .implies("export-profile", "write-probes")
        .implies("probe-image", "write-probes")
        .example("$0 doctor --tenant staging", "What the staging tenant's answers show, read-only")
        .example("$0 doctor --tenant staging --write-probes --export-profile 1", "Also the readings only writes show (records removed after)")
        .example("$0 doctor --tenant staging --format json > readings.json && $0 emulator --switches readings.json", "An emulator reading API v1 alike")
        .example("$0 doctor --tenant prod --bundle support.json", "A support bundle for a bug report (no tokens)") as never,
    handler: bundled(io, "doctor", async (args, hooks) => {
      if (args.replay) return replayCommand(io, args, args.replay);
      const again = `pimctl doctor${args.config ? ` --config ${args.config}` : ""}${args.tenant ? ` --tenant ${args.tenant}` : ""} --remove-leftovers`;
      const report = await doctor({
        ...projectOptions(args, io),
        ...hooks.options,
        writeProbes: args["write-probes"] === true,
        removeLeftovers: args["remove-leftovers"] === true,
        ...(args["export-profile"] !== undefined ? { exportProfile: args["export-profile"] } : {}),
        ...(args["probe-image"] ? { probeImage: args["probe-image"] } : {}),
        pings: Math.max(1, args.pings),
        progress: (line) => say(args, io, line),
        removeCommand: again,
      });
      hooks.report(report);
      io.stdout(args.format === "json" ? `${jsonText(report, 2)}\n` : renderDoctorText(report));
      const problems = doctorProblems(report);
      for (const p of problems) io.stderr(`doctor: ${p}\n`);
      if (problems.length) throw new ExitWith(EXIT.error);
    }),
  };
}

/** --replay: each request of the bundle sent again; a line per answer that differs, and exit 1 when any does. */
async function replayCommand(io: Io, args: DoctorArgs, file: string): Promise<void> {
  const r = await replayBundle({ ...projectOptions(args, io), file });
  const differ = r.rows.filter((x) => !x.same);
  const shown = (s: { status?: number; shape: string } | undefined) => (s ? `${s.status ?? "no answer"} ${s.shape}` : "not sent");
  const lines = [`Replayed ${r.rows.length} exchanges of ${file} against tenant "${r.tenant}" (${r.baseUrl}).`];
  for (const x of r.rows)
    lines.push(
      `  ${x.same ? "same" : "DIFF"}  #${x.seq} ${escapeControls(`${x.method} ${x.path}`)}` +
        (x.same ? ` ${shown(x.now)}` : `: recorded ${shown(x.recorded)}, now ${shown(x.now)}${x.note ? ` (${escapeControls(x.note)})` : ""}`),
    );
  lines.push(differ.length ? `${differ.length} of ${r.rows.length} answered differently.` : "Every answer had the recorded status and shape.");
  io.stdout(`${lines.join("\n")}\n`);
  if (differ.length) throw new ExitWith(EXIT.error);
}
