/**
 * `--bundle FILE` on doctor, plan and apply: the command runs with a recorder on its client, and
 * the bundle is written when it ends, however it ends (an error is what a bug report is for).
 */
import path from "node:path";
import type { Argv } from "yargs";
import { BundleRecorder, writeBundle, type BundleParts } from "../bundle/bundle.js";
import type { ExchangeHook } from "../api/exchange.js";
import type { DoctorReport } from "../doctor/types.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { projectConfig } from "../workflows/project.js";
import { ExitWith } from "./exit-codes.js";
import type { Io } from "./io.js";
import { projectOptions, say, warnLine, type GlobalArgs } from "./options.js";
import { refuseUnwritable } from "./output-files.js";

export interface BundleArgs extends GlobalArgs {
  bundle?: string;
}

export function withBundle<T>(y: Argv<T>): Argv<T & BundleArgs> {
  return y.option("bundle", {
    type: "string",
    describe:
      "Also write a support bundle to FILE for a bug report: versions, the config without tokens, the HTTP exchanges (no authorization, no " +
      "cookies; bodies cut), doctor's readings. One tenant's: refused when the command runs for several",
    group: "Output and network:",
  }) as Argv<T & BundleArgs>;
}

/** What a command running under --bundle adds to its options, and where doctor hands its report. */
export interface BundleHooks {
  options: { onExchange?: ExchangeHook };
  report(r: DoctorReport): void;
  /**
   * The command is about to run for several tenants (`what` says which, or from which files): with
   * --bundle, refused before anything is sent, and no bundle is written. A bundle is one tenant's
   * exchanges: they name no tenant, and `doctor --replay` sends them all to one.
   */
  refuseSeveral(what: string): void;
}

/** Runs a command's handler with a recorder when --bundle is given, and writes the bundle after it, also on failure. */
export function bundled<A extends BundleArgs>(io: Io, command: string, handler: (args: A, hooks: BundleHooks) => Promise<void>): (args: A) => Promise<void> {
  return async (args) => {
    if (!args.bundle) return handler(args, { options: {}, report: () => undefined, refuseSeveral: () => undefined });
    const file = args.bundle;
    await refuseUnwritable(io.cwd, { bundle: file });
    const recorder = new BundleRecorder();
    let doctor: DoctorReport | undefined;
    let outcome: BundleParts["outcome"] = { exit_code: 0 };
    let refused = false;
    const refuseSeveral = (what: string) => {
      refused = true;
      throw new PimctlError(
        "usage",
        `--bundle ${file} records the HTTP exchanges of one tenant (they name no tenant; pimctl doctor --replay sends them all to one), ` +
          `and ${what}: run the ${command} for one tenant at a time with --bundle. Nothing was run; no bundle was written`,
      );
    };
    try {
      await handler(args, { options: { onExchange: recorder.record }, report: (r) => (doctor = r), refuseSeveral });
    } catch (e) {
      outcome = outcomeOf(e);
      throw e;
    } finally {
      if (!refused) await writeRunBundle(io, args, file, { command, recorder, outcome, ...(doctor ? { doctor } : {}) });
    }
  };
}

/** What refuseSeveral says of a --tenant value that selects several. */
export function selectsSeveral(spec: string | undefined, tenants: readonly string[]): string {
  return `--tenant ${JSON.stringify(spec ?? "")} selects ${tenants.length} tenants (${tenants.join(", ")})`;
}

/** The bundle of a run that ended (well or not): its exchanges, the config without secrets, how it ended. */
async function writeRunBundle(io: Io, args: BundleArgs, file: string, run: Pick<BundleParts, "command" | "recorder" | "outcome" | "doctor">): Promise<void> {
  const { command, recorder, outcome, doctor } = run;
  const config = await projectConfig(projectOptions(args, io)).catch((e: unknown) => ({ error: messageOf(e) }));
  const parts: BundleParts = {
    command,
    options: optionsOf(args),
    config,
    ...(args.tenant ? { tenant: args.tenant } : {}),
    ...(doctor ? { doctor } : {}),
    outcome,
    recorder,
    env: io.env,
  };
  await writeBundle(path.resolve(io.cwd, file), parts).then(
    () => say(args, io, `Wrote the support bundle to ${file} (${recorder.exchanges.length} HTTP exchanges; no tokens or cookies).`),
    (e: unknown) => warnLine(io)(`the support bundle could not be written to ${file}: ${messageOf(e)}`),
  );
}

/** The options the command ran with, as given (yargs' camelCase copies and its own keys left out). */
function optionsOf(args: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k, v]) => k !== "_" && !k.startsWith("$") && !/[A-Z]/.test(k) && v !== undefined));
}

function messageOf(e: unknown): string {
  return e instanceof PimctlError
    ? e.format()
    : e instanceof PimctlErrors
      ? e.errors.map((x) => x.format()).join("; ")
      : e instanceof Error
        ? e.message
        : String(e);
}

function outcomeOf(e: unknown): BundleParts["outcome"] {
  if (e instanceof ExitWith) return { exit_code: e.code };
  return { error: messageOf(e) };
}
