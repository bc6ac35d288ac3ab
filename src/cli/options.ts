/**
 * Options every command shares, defined once so they read the same everywhere:
 * --config, --tenant, --dir, --parallelism, --log-http, --no-color, --quiet, --format.
 */
import path from "node:path";
import type { Argv } from "yargs";
import { commandLine } from "../base/shell-words.js";
import { findConfig } from "../config/find.js";
import { FORMATS, wantColor, type Format } from "../render/index.js";
import { escapeControls } from "../base/controls.js";
import { notADuration, parseDuration } from "../base/durations.js";
import { PimctlError } from "../errors.js";
import type { ProjectOptions } from "../workflows/index.js";
import { REFRESH_MODES, type RefreshMode } from "../state/changelog/index.js";
import type { Io } from "./io.js";

export interface GlobalArgs {
  config?: string;
  tenant?: string;
  dir?: string;
  parallelism?: number;
  "log-http"?: boolean;
  color?: boolean;
  quiet?: boolean;
  refresh?: RefreshMode;
}

export function withProjectOptions<T>(y: Argv<T>): Argv<T & GlobalArgs> {
  return y
    .option("config", {
      type: "string",
      describe: "Config file (default: pimctl.yaml here, else in the nearest folder above, up to the Git repository's root)",
      group: "Project:",
    })
    .option("tenant", {
      type: "string",
      describe:
        "Tenant name from the config (optional when it names one); commands that work on several take names and globs, " +
        "comma-separated or the option repeated ('prod-*'; docs/fleets.md)",
      group: "Project:",
      coerce: tenantList,
    })
    .option("dir", { type: "string", describe: "Manifest directory (default: the config's dir:, else .)", group: "Project:" })
    .option("parallelism", { type: "number", describe: "Concurrent requests to the tenant (default 8)", group: "Output and network:" })
    .option("log-http", { type: "boolean", describe: "Log each HTTP request to stderr (token redacted); also PIMCTL_LOG_HTTP=1", group: "Output and network:" })
    .option("color", { type: "boolean", describe: "Colour output (--no-color turns it off; NO_COLOR is honoured)", group: "Output and network:" })
    .option("quiet", { alias: "q", type: "boolean", describe: "No output but the result (plan, report)", group: "Output and network:" }) as Argv<
    T & GlobalArgs
  >;
}

/**
 * --tenant given more than once is the comma-separated list (`--tenant a --tenant b` is `--tenant a,b`,
 * as kubectl takes a repeated selector): every command then reads one string, a command that works on
 * several tenants takes them all, and one that works on one refuses them, naming them (config/select.ts).
 */
function tenantList(value: string | string[]): string {
  return Array.isArray(value) ? value.join(",") : value;
}

/** An option whose value names one thing (init's --tenant writes one tenant): given more than once is a usage error. */
export function once(option: string, why: string): (value: string | string[]) => string {
  return (value) => {
    if (!Array.isArray(value)) return value;
    throw new PimctlError("usage", `--${option} is given ${value.length} times: ${why}, so name it once`);
  };
}

/** For the commands that read a tenant to plan against it (plan, apply, diff, drift). */
export function withRefresh<T>(y: Argv<T>): Argv<T & { refresh?: RefreshMode }> {
  return y.option("refresh", {
    choices: REFRESH_MODES,
    describe:
      "How the tenant is read: full (every time; the default) or changelog (a snapshot in the state backend's cache, brought up to date from GET " +
      "/changelogs; falls back to a full read when the feed cannot prove it current)",
    group: "Output and network:",
  }) as Argv<T & { refresh?: RefreshMode }>;
}

/** plan, and apply when it plans itself: src/plan/empty-files.ts. */
export const ALLOW_EMPTY_FILES_OPTION = {
  type: "boolean",
  describe:
    "Plan deletes even while a manifest file declares nothing (empty, or only comments); without it such a plan is refused (exit 3): " +
    "pimctl cannot tell what the file held. A saved plan was checked when it was made",
} as const;

export function withFormat<T>(y: Argv<T>): Argv<T & { format: Format }> {
  return y.option("format", {
    alias: "f",
    choices: FORMATS,
    default: "text" as Format,
    describe: "Output format: text for people, markdown for pull requests, json for programs, html for a review page (one self-contained file)",
    group: "Output and network:",
  }) as Argv<T & { format: Format }>;
}

export function projectOptions(args: GlobalArgs, io: Io): ProjectOptions {
  const logHttp = args["log-http"] === true || io.env.PIMCTL_LOG_HTTP === "1";
  const configPath = configPathFor(args, io);
  return {
    cwd: io.cwd,
    env: io.env,
    ...(configPath ? { configPath } : {}),
    ...(args.dir ? { dir: args.dir } : {}),
    ...(args.tenant ? { tenant: args.tenant } : {}),
    ...(args.parallelism ? { parallelism: args.parallelism } : {}),
    ...(args.refresh ? { refresh: args.refresh } : {}),
    ...(io.interrupt ? { signal: io.interrupt } : {}),
    ...(logHttp
      ? { logHttp: (line: string) => io.stderr(`http: ${escapeControls(line)}\n`), log: (line: string) => io.stderr(`debug: ${escapeControls(line)}\n`) }
      : {}),
  };
}

/**
 * --config, else the pimctl.yaml found above the working directory (src/config/find.ts), said on
 * stderr in one line: run from the manifest folder, the config read is not the one a person sees.
 * Undefined: the working directory's own pimctl.yaml, or none (the loader says so).
 */
export function configPathFor(args: GlobalArgs, io: Io): string | undefined {
  if (args.config) return args.config;
  const found = findConfig(io.cwd).file;
  if (!found || path.dirname(found) === path.resolve(io.cwd)) return undefined;
  say(args, io, `using the config ${path.relative(io.cwd, found)} (the nearest pimctl.yaml above this folder)`);
  return found;
}

export function colorFor(args: GlobalArgs, io: Io): boolean {
  return wantColor({ isTTY: io.isTTY, env: io.env, noColor: args.color === false });
}

/**
 * Human messages go to stderr, and not at all with --quiet. They quote names from
 * the manifests and the tenant, so control characters are shown as escapes
 * (src/base/controls.ts); the message's own line breaks stay.
 */
export function say(args: GlobalArgs, io: Io, text: string): void {
  const shown = escapeControls(text, { keepNewlines: true });
  if (!args.quiet) io.stderr(shown.endsWith("\n") ? shown : `${shown}\n`);
}

/** A warning from the library (a stale lock, a merged state write) for people: one line, escaped. */
export function warnLine(io: Io): (line: string) => void {
  return (line) => io.stderr(`warning: ${escapeControls(line)}\n`);
}

/** A duration option (--lock-timeout 5m, --since 2h) in milliseconds; anything else is a usage error. */
export function durationOption(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new PimctlError("usage", notADuration(text));
  return ms;
}

/** The command that applies a saved plan file, as a person types it (with the --config it was planned with). */
export function applyCommand(config: string | undefined, file: string): string {
  return commandLine(["pimctl", "apply"], [["config", config]], [file]);
}
