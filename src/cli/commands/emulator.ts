import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import type { EmulatorSwitches, FaultMode, SeedFile } from "../../emulator/index.js";
import { PimctlError } from "../../errors.js";
import { hold } from "../../holdings.js";
import type { Io } from "../io.js";
import { emulatorOptions, parseSwitches } from "../../doctor/vocabulary.js";

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
  "category-attribute-sets-read"?: EmulatorSwitches["categoryAttributeSetsRead"];
  "asset-uri"?: EmulatorSwitches["assetUri"];
  "search-case"?: EmulatorSwitches["searchCase"];
  "version-fallback"?: boolean;
  "category-delete-with-children"?: EmulatorSwitches["categoryDeleteWithChildren"];
  "changelog-subtree-deletes"?: EmulatorSwitches["changelogSubtreeDeletes"];
  "changelog-paging"?: EmulatorSwitches["changelogPaging"];
  "changelog-total"?: EmulatorSwitches["changelogTotal"];
  "fault-modes"?: string;
  "bool-format"?: "int" | "string" | "bool";
  "id-format"?: EmulatorSwitches["idFormat"];
  "id-sequence"?: EmulatorSwitches["idSequence"];
  "set-attribute-delete-id"?: EmulatorSwitches["setAttributeDeleteId"];
  "search-empty"?: "404" | "empty-array" | "null";
  "max-page-size"?: number;
  "oversized-limit"?: EmulatorSwitches["oversizedLimit"];
  "paginate-all-lists"?: boolean;
  "date-format"?: "iso-z" | "iso-offset" | "sql";
  "export-download"?: EmulatorSwitches["exportDownload"];
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

/** The switches given as options (left out when not given: the file's, else the table's default, holds). */
function givenSwitches(args: EmulatorArgs): Partial<EmulatorSwitches> {
  const given: Partial<Record<keyof EmulatorSwitches, unknown>> = {
    categoryAttributeSetsRead: args["category-attribute-sets-read"],
    assetUri: args["asset-uri"],
    searchCase: args["search-case"],
    versionFallback: args["version-fallback"],
    categoryDeleteWithChildren: args["category-delete-with-children"],
    changelogSubtreeDeletes: args["changelog-subtree-deletes"],
    changelogPaging: args["changelog-paging"],
    changelogTotal: args["changelog-total"],
    boolFormat: args["bool-format"],
    idFormat: args["id-format"],
    idSequence: args["id-sequence"],
    setAttributeDeleteId: args["set-attribute-delete-id"],
    searchEmpty: args["search-empty"],
    maxPageSize: args["max-page-size"],
    oversizedLimit: args["oversized-limit"],
    paginateAllLists: args["paginate-all-lists"],
    dateFormat: args["date-format"],
    exportDownload: args["export-download"],
  };
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<EmulatorSwitches>;
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
      tlsOptions(wireSwitchOptions(recordSwitchOptions(limitOptions(faultOptions(serverOptions(y))))))
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

/** How it reads API v1 where the document is silent (a switches file, then each switch; see src/emulator/README.md): records, searches, the changelog. */
function recordSwitchOptions<T>(y: Argv<T>) {
  return y
    .option("switches", {
      type: "string",
      describe: "Read API v1 as FILE says: pimctl doctor --format json output, a support bundle, or an object of switches (options given here win)",
      group: "Where API v1 is silent:",
    })
    .option("category-attribute-sets-read", {
      choices: ["objects", "ids", "csv"] as const,
      describe: "Read shape of category.attribute_sets (default: objects)",
      group: "Where API v1 is silent:",
    })
    .option("asset-uri", {
      choices: ["rehost", "echo"] as const,
      describe: "Asset uri: the emulator's own address, or the image_url given (default: rehost)",
      group: "Where API v1 is silent:",
    })
    .option("search-case", {
      choices: ["sensitive", "insensitive"] as const,
      describe: "Case of the exact-match search endpoints (default: sensitive)",
      group: "Where API v1 is silent:",
    })
    .option("version-fallback", {
      type: "boolean",
      describe: "Version reads fall back to master text (default; --no-version-fallback: null)",
      group: "Where API v1 is silent:",
    })
    .option("category-delete-with-children", {
      choices: ["refuse", "cascade"] as const,
      describe: "DELETE of a category with children (default: refuse)",
      group: "Where API v1 is silent:",
    })
    .option("changelog-subtree-deletes", {
      choices: ["each", "root"] as const,
      describe: "A cascaded category delete: a changelog entry per category, or only for the one deleted (default: each)",
      group: "Where API v1 is silent:",
    })
    .option("changelog-paging", {
      choices: ["links", "capped"] as const,
      describe: "GET /changelogs: paged with links and meta, or only the first `limit` entries (default: links)",
      group: "Where API v1 is silent:",
    })
    .option("changelog-total", {
      choices: ["matching", "absent", "tenant", "lagging"] as const,
      describe: "GET /changelogs meta.total: the entries matched, none, every entry of the tenant, or one less than matched (default: matching)",
      group: "Where API v1 is silent:",
    });
}

/** Where API v1 is silent about the wire: booleans, ids, dates, pages, searches that find nothing, downloads. */
function wireSwitchOptions<T>(y: Argv<T>) {
  return y
    .option("bool-format", {
      choices: ["int", "string", "bool"] as const,
      describe: "Booleans on the wire (default: as the document shows them)",
      group: "Where API v1 is silent:",
    })
    .option("id-format", {
      choices: ["number", "string"] as const,
      describe: "Ids on the wire: numbers or numeric strings (default: number)",
      group: "Where API v1 is silent:",
    })
    .option("id-sequence", {
      choices: ["per-table", "global"] as const,
      describe: "One id sequence per table (as a database) or one for all (default: per-table)",
      group: "Where API v1 is silent:",
    })
    .option("set-attribute-delete-id", {
      choices: ["assignment", "attribute"] as const,
      describe: "Which id DELETE /attribute_sets/<S>/attributes/<ID> takes (default: assignment)",
      group: "Where API v1 is silent:",
    })
    .option("search-empty", {
      type: "string",
      choices: ["404", "empty-array", "null"] as const,
      describe: "How a search says nothing found (default: an empty 200 body)",
      group: "Where API v1 is silent:",
    })
    .option("max-page-size", { type: "number", describe: "A limit above N answers 422 (default: clamped to 1000)", group: "Where API v1 is silent:" })
    .option("oversized-limit", {
      choices: ["refuse", "clamp"] as const,
      describe: "A limit above --max-page-size: 422, or clamped to it without a word (default: refuse)",
      group: "Where API v1 is silent:",
    })
    .option("paginate-all-lists", {
      type: "boolean",
      describe: "Lists the document shows unpaginated answer 25 a page, with links and meta",
      group: "Where API v1 is silent:",
    })
    .option("date-format", {
      choices: ["iso-z", "iso-offset", "sql"] as const,
      describe: "Dates on the wire (default: ISO 8601 with Z, no milliseconds)",
      group: "Where API v1 is silent:",
    })
    .option("export-download", {
      choices: ["direct", "redirect"] as const,
      describe: "file_url serves the file, or redirects to a second address that refuses the token (default: direct)",
      group: "Where API v1 is silent:",
    });
}

/** HTTPS, as a real tenant serves. */
function tlsOptions<T>(y: Argv<T>) {
  return y
    .option("tls-cert", { type: "string", describe: "Serve HTTPS with this certificate (PEM file); needs --tls-key" })
    .option("tls-key", { type: "string", describe: "The certificate's private key (PEM file)" });
}
