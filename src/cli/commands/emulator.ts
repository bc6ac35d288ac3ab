import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import type { FaultMode, SeedFile } from "../../emulator/index.js";
import { PimctlError } from "../../errors.js";
import { hold } from "../../holdings.js";
import type { Io } from "../io.js";
import { emulatorOptions, parseSwitches } from "../../doctor/vocabulary.js";
import { givenSwitches, switchOptions } from "./emulator-switches.js";

interface EmulatorArgs {
  port: number;
  host: string;
  tenant: string[];
  seed?: string;
  data?: string;
  "latency-ms"?: number;
  "fail-rate"?: number;
  "rate-limit"?: number;
  "fault-seed"?: number;
  "export-step-ms"?: number;
  "max-body-bytes"?: number;
  switches?: string;
  "fault-modes"?: string;
  "tls-cert"?: string;
  "tls-key"?: string;
}

const FAULT_MODES: FaultMode[] = ["error500", "rate429", "drop", "drop_after_commit", "stall"];

/** Parses "error500,drop_after_commit". */
export function parseFaultModes(list: string): FaultMode[] {
  const modes = list
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  const bad = modes.find((m) => !FAULT_MODES.includes(m as FaultMode));
  if (bad !== undefined || !modes.length)
    throw new PimctlError("usage", `--fault-modes takes a comma-separated list of ${FAULT_MODES.join(", ")}${bad ? `; "${bad}" is not one` : ""}`);
  return modes as FaultMode[];
}

/** Parses NAME=TOKEN. */
export function parseTenantSpec(spec: string): { hash: string; token: string } {
  const i = spec.indexOf("=");
  if (i <= 0 || i === spec.length - 1) throw new PimctlError("usage", `--tenant takes NAME=TOKEN, got "${spec.split("=")[0]}=…"`);
  return { hash: spec.slice(0, i), token: spec.slice(i + 1) };
}

export function emulatorCommand(io: Io): CommandModule<object, EmulatorArgs> {
  return {
    command: "emulator",
    describe: "Run a local PIM tenant server (API v1) for demos, tests and benchmarks",
    builder: (y) =>
      tlsOptions(switchesOptions(limitOptions(faultOptions(serverOptions(y)))))
        .example("$0 emulator --port 4010 --tenant demo=TOKEN_A --tenant prod=TOKEN_B", "Two tenants with their own tokens")
        .example("$0 emulator --tls-cert cert.pem --tls-key key.pem --tenant demo=T", "Behind TLS, as a real tenant is (trust the CA with NODE_EXTRA_CA_CERTS)")
        .example("$0 emulator --port 0 --latency-ms 20 --fail-rate 0.1", "A slow, flaky tenant on a free port") as never,
    handler: async (args) => {
      const seed = args.seed ? (JSON.parse(await readFile(path.resolve(io.cwd, args.seed), "utf8")) as SeedFile) : undefined;
      if (Boolean(args["tls-cert"]) !== Boolean(args["tls-key"])) throw new PimctlError("usage", "--tls-cert and --tls-key go together");
      const tls =
        args["tls-cert"] && args["tls-key"]
          ? { cert: await readFile(path.resolve(io.cwd, args["tls-cert"]), "utf8"), key: await readFile(path.resolve(io.cwd, args["tls-key"]), "utf8") }
          : undefined;
      // The file's readings (doctor's report, a bundle), then each option given on the command line.
      const fromFile = args.switches ? parseSwitches(await readFile(path.resolve(io.cwd, args.switches), "utf8"), args.switches) : {};
      const switches = { ...fromFile, ...givenSwitches(args) };
      // Loaded when used: the emulator is not part of any other command's start-up.
      const { startEmulator } = await import("../../emulator/index.js");
      const emu = await startEmulator({
        host: args.host,
        port: args.port,
        tenants: args.tenant.map(parseTenantSpec),
        ...(seed ? { seed } : {}),
        ...(tls ? { tls } : {}),
        ...(args.data ? { dataFile: path.resolve(io.cwd, args.data) } : {}),
        ...(args["latency-ms"] !== undefined ? { latencyMs: args["latency-ms"] } : {}),
        ...(args["fail-rate"] !== undefined ? { failRate: args["fail-rate"] } : {}),
        ...(args["rate-limit"] !== undefined ? { rateLimit: args["rate-limit"] } : {}),
        ...(args["fault-seed"] !== undefined ? { faultSeed: args["fault-seed"] } : {}),
        ...(args["export-step-ms"] !== undefined ? { exportStepMs: args["export-step-ms"] } : {}),
        ...(args["max-body-bytes"] !== undefined ? { maxBodyBytes: args["max-body-bytes"] } : {}),
        ...(args["fault-modes"] ? { faultModes: parseFaultModes(args["fault-modes"]) } : {}),
        switches,
      });
      // Each tenant's base URL, as pimctl.yaml's base_url wants it (tokens are never printed).
      const hashes = args.tenant.map((t) => parseTenantSpec(t).hash);
      const width = Math.max(...hashes.map((h) => h.length));
      io.stdout(
        `pimctl emulator listening on ${emu.url} (tenants: ${hashes.join(", ")})\n` +
          hashes.map((h) => `  ${`${h}:`.padEnd(width + 1)} ${emu.tenantUrl(h)}\n`).join("") +
          (args.switches ? `  reading API v1 as ${args.switches} and the options given say: ${emulatorOptions(switches).join(" ") || "(the defaults)"}\n` : ""),
      );
      // close() stops accepting, lets a running save finish and saves once more if dirty; a failed
      // final save rejects, so the command fails instead of exiting 0 with stale data on disk.
      // Held while it serves: the CLI's signal handler leaves the first signal to it (a clean stop, data saved).
      const released = hold({ what: "the emulator", stopsItself: true, release: async () => [] });
      await new Promise<void>((resolve, reject) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          emu.close().then(resolve, reject);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      }).finally(released);
    },
  };
}

/** Where it listens, its tenants, and what it starts from. */
function serverOptions<T>(y: Argv<T>) {
  return y
    .option("port", { type: "number", default: 4010, describe: "Port to listen on (0 picks a free one)" })
    .option("host", { type: "string", default: "127.0.0.1", describe: "Address to listen on" })
    .option("tenant", { type: "string", array: true, default: ["demo=demo-token"], describe: "A tenant and its token, NAME=TOKEN; repeatable" })
    .option("seed", { type: "string", describe: "JSON seed file (see src/emulator/README.md)" })
    .option("data", { type: "string", describe: "Keep state in this file across restarts (atomic writes)" });
}

/** Faults it injects (latency, errors, dropped answers, rate limits). */
function faultOptions<T>(y: Argv<T>) {
  return y
    .option("latency-ms", { type: "number", describe: "Added to every API request", group: "Faults:" })
    .option("fail-rate", { type: "number", describe: "Fraction of requests answered 500 or dropped (0..1)", group: "Faults:" })
    .option("rate-limit", { type: "number", describe: "Requests per second per tenant; beyond: 429 with Retry-After", group: "Faults:" })
    .option("fault-seed", { type: "number", describe: "Seed for reproducible random faults", group: "Faults:" })
    .option("fault-modes", {
      type: "string",
      describe: "What a random fault does, comma-separated: error500, drop, drop_after_commit, rate429 (default error500,drop)",
      group: "Faults:",
    });
}

/** How long an export takes, and how large a body it takes. */
function limitOptions<T>(y: Argv<T>) {
  return y
    .option("export-step-ms", { type: "number", describe: "Time per export state (queued, processing, done)" })
    .option("max-body-bytes", { type: "number", describe: "Larger request bodies get 413 (default 1 MiB)" });
}

/** How it reads API v1 where the document is silent: a switches file, then each switch, the options generated from SWITCHES (see src/emulator/README.md). */
function switchesOptions<T>(y: Argv<T>) {
  return y
    .option("switches", {
      type: "string",
      describe: "Read API v1 as FILE says: pimctl doctor --format json output, a support bundle, or an object of switches (options given here win)",
      group: "Where API v1 is silent:",
    })
    .options(switchOptions());
}

/** HTTPS, as a real tenant serves. */
function tlsOptions<T>(y: Argv<T>) {
  return y
    .option("tls-cert", { type: "string", describe: "Serve HTTPS with this certificate (PEM file); needs --tls-key" })
    .option("tls-key", { type: "string", describe: "The certificate's private key (PEM file)" });
}
