import { readFile, writeFile } from "node:fs/promises";
import { decodeManifest } from "../../manifest/encoding.js";
import { PimctlErrors } from "../../errors.js";
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import { describeHolder } from "../../state/backends/index.js";
import { severalTenants, showFleetState, type ShownState } from "../../workflows/fleet-commands.js";
import { migrateState, pullState, pushState, rmState, showState, unlockState, type StateOptions } from "../../workflows/state.js";
import type { Io } from "../io.js";
import { durationOption, projectOptions, say, warnLine, withProjectOptions, type GlobalArgs } from "../options.js";
import { escapeControls, escapeJsonText, jsonText } from "../../base/controls.js";

interface StateArgs extends GlobalArgs {
  file?: string;
  to?: "local" | "git";
  from?: "local" | "git";
  addresses?: string[];
  "lock-id"?: string;
  offline?: boolean;
  json?: boolean;
  "lock-timeout"?: string;
  prefer?: "incoming" | "stored";
}

function stateOptions(args: StateArgs, io: Io): StateOptions {
  return {
    ...projectOptions(args, io),
    ...(args["lock-timeout"] ? { lockTimeoutMs: durationOption(args["lock-timeout"]) } : {}),
    ...(args.prefer ? { prefer: args.prefer } : {}),
    warn: warnLine(io),
  };
}

const lockTimeout = <T>(y: Argv<T>) => y.option("lock-timeout", { type: "string", describe: "Wait this long (30s, 5m) for a held lock instead of failing" });

/** push, migrate: which side an entry is taken from where write times cannot tell (otherwise: refused, listing them). */
const prefer = <T>(y: Argv<T>) =>
  y.option("prefer", {
    choices: ["incoming", "stored"] as const,
    describe: "Where write times cannot tell two differing entries apart: take the incoming one (the file, the source) or keep the stored one",
  });

/** What a merge did, in one line. */
function mergedLine(r: { taken: number; kept: number; settled: number }): string {
  const parts = [`${r.taken} entr${r.taken === 1 ? "y" : "ies"} taken`, `${r.kept} kept (newer where they are)`];
  if (r.settled) parts.push(`${r.settled} settled by --prefer`);
  return parts.join(", ");
}

function valueText(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** The handler as given, or one that does nothing when the command line is only parsed (parseOnly). */
type Handle = (handler: (args: StateArgs) => Promise<void>) => (args: StateArgs) => Promise<void>;
const sub = (m: CommandModule<object, StateArgs>) => m as unknown as CommandModule;

/** `pimctl state <command>`: look at and repair what pimctl remembers of a tenant (the ledger) and its lock. */
export function stateCommand(io: Io, opts: { parseOnly?: boolean } = {}): CommandModule<object, StateArgs> {
  const run: Handle = (handler) => (opts.parseOnly ? async () => undefined : handler);
  return {
    command: "state <command>",
    describe: "Show, copy, repair or unlock the tenant's state (the ledger of write-only values, and the apply lock)",
    builder: (y) =>
      withProjectOptions(y)
        .command(sub(showCommand(io, run)))
        .command(sub(pullCommand(io, run)))
        .command(sub(pushCommand(io, run)))
        .command(sub(migrateCommand(io, run)))
        .command(sub(rmCommand(io, run)))
        .command(sub(breakLockCommand(io, run)))
        .demandCommand(1, "Name a state command: show, pull, push, migrate, rm or unlock.")
        .example("$0 state show", "What pimctl remembers of the tenant")
        .example("$0 state unlock <LOCK_ID>", "Break a stale lock") as never,
    handler: () => undefined,
  };
}

/** `state show`: the ledger and the lock, as text or JSON. */
function showCommand(io: Io, run: Handle): CommandModule<object, StateArgs> {
  return {
    command: "show",
    describe: "List what the ledger holds, per record, by address (and who holds the lock)",
    builder: (b) =>
      b
        .option("offline", { type: "boolean", describe: "Do not contact the tenant: show ledger keys (brand:12) without names" })
        .option("json", { type: "boolean", describe: "Print JSON" })
        .example("$0 state show --tenant prod", "Every remembered web id, asset image_url and attribute-set assignment") as never,
    handler: run(async (args: StateArgs) => {
      const opts = { ...projectOptions(args, io), ...(args.offline ? { offline: true } : {}) };
      const several = await severalTenants(opts);
      if (!several) {
        const s = await showState(opts);
        return void io.stdout(args.json ? `${jsonText(s, 2)}\n` : stateText(s));
      }
      // Several tenants: each in name order; one that cannot be read is an error naming it, after the others.
      const { shown, errors } = await showFleetState(opts, several);
      io.stdout(args.json ? `${jsonText({ tenants: shown }, 2)}\n` : shown.map(stateText).join("\n"));
      if (errors.length) throw new PimctlErrors(errors);
    }),
  };
}

/** `state pull [file]`: the stored ledger, to stdout or a file. */
function pullCommand(io: Io, run: Handle): CommandModule<object, StateArgs> {
  return {
    command: "pull [file]",
    describe: "Write the stored ledger to a file (or stdout), for inspection or repair",
    builder: (b) =>
      b
        .positional("file", { type: "string", describe: "Where to write it (default: stdout)" })
        .example("$0 state pull ledger.json", "Copy the ledger out") as never,
    handler: run(async (args: StateArgs) => {
      const text = await pullState(projectOptions(args, io));
      if (!args.file) return void io.stdout(escapeJsonText(text));
      await writeFile(path.resolve(io.cwd, args.file), text);
      say(args, io, `Wrote the ledger to ${args.file}.`);
    }),
  };
}

/** `state push <file>`: a ledger file merged into the stored one. */
function pushCommand(io: Io, run: Handle): CommandModule<object, StateArgs> {
  return {
    command: "push <file>",
    describe: "Merge a file into the stored ledger, the newer entry winning (takes the lock, compare-and-swap write)",
    builder: (b) =>
      prefer(lockTimeout(b.positional("file", { type: "string", demandOption: true }))).example(
        "$0 state push ledger.json",
        "Put a repaired ledger or a rescue file back",
      ) as never,
    handler: run(async (args: StateArgs) => {
      // UTF-8 only, as every file pimctl reads: a Latin-1 byte is an error with its place, never a U+FFFD stored.
      const decoded = decodeManifest(await readFile(path.resolve(io.cwd, args.file!)), args.file!);
      if ("error" in decoded) throw new PimctlErrors([decoded.error]);
      const r = await pushState(stateOptions(args, io), decoded.text, args.file!);
      say(args, io, `Merged ${args.file} (${r.entries} record(s)) into ${r.location}: ${mergedLine(r)}.`);
    }),
  };
}

/** `state migrate`: the ledger moved from one backend to the other. */
function migrateCommand(io: Io, run: Handle): CommandModule<object, StateArgs> {
  return {
    command: "migrate",
    describe: "Copy the ledger to another backend, merging entry by entry, the newer winning (then set state.backend in pimctl.yaml)",
    builder: (b) =>
      prefer(lockTimeout(b))
        .option("to", { choices: ["local", "git"] as const, demandOption: true, describe: "The backend to copy to" })
        .option("from", { choices: ["local", "git"] as const, describe: "The backend to copy from (default: the configured one, or the other one)" })
        .example("$0 state migrate --to git", "Move the laptop's .pimctl/ ledger to the Git remote") as never,
    handler: run(async (args: StateArgs) => {
      const r = await migrateState({ ...stateOptions(args, io), to: args.to!, ...(args.from ? { from: args.from } : {}) });
      say(args, io, `Copied ${r.copied} record(s) from ${r.from} to ${r.to} (${r.total} there now): ${mergedLine(r)}.`);
      if (args.to === "git") say(args, io, "Now set in pimctl.yaml:\n  state:\n    backend: git");
    }),
  };
}

/** `state rm <addresses..>`: entries forgotten. */
function rmCommand(io: Io, run: Handle): CommandModule<object, StateArgs> {
  return {
    command: "rm <addresses..>",
    describe: "Forget records so their write-only values are written again by the next apply",
    builder: (b) =>
      lockTimeout(
        b.positional("addresses", { type: "string", array: true, describe: 'brand["Acme"], category["Apparel/Shirts"], or a ledger key (brand:12)' }),
      ).example("$0 state rm 'brand[\"Acme\"]'", "Acme's web ids and asset URLs are unknown again") as never,
    handler: run(async (args: StateArgs) => {
      const r = await rmState(stateOptions(args, io), args.addresses ?? []);
      for (const x of r.removed)
        say(args, io, x.entries ? `Forgot ${x.ref} (${x.entries} entr${x.entries === 1 ? "y" : "ies"}).` : `${x.ref}: nothing in the ledger.`);
    }),
  };
}

/** `state unlock <lock-id>`: a lock broken by its id. */
function breakLockCommand(io: Io, run: Handle): CommandModule<object, StateArgs> {
  return {
    command: "unlock <lock-id>",
    describe: "Break a lock left by a run that is gone (like terraform force-unlock)",
    builder: (b) =>
      b
        .positional("lock-id", { type: "string", describe: "The id the locked apply printed (also in pimctl state show)" })
        .example("$0 state unlock 6f1c2a9e-...", "Remove that lock, and only that one") as never,
    handler: run(async (args: StateArgs) => {
      const r = await unlockState(projectOptions(args, io), String(args["lock-id"]));
      io.stdout(`${escapeControls(`Broke the lock ${args["lock-id"]} (${r.location}), ${describeHolder(r.holder)}.`)}\n`);
    }),
  };
}

/** One tenant's state for people. Names, values and the lock holder's words come from the ledger: each line escaped (src/base/controls.ts). */
function stateText(s: ShownState): string {
  const lines: string[] = [];
  const line = (text: string) => lines.push(`${escapeControls(text)}\n`);
  line(`State of tenant "${s.tenant}" (${s.location}): ${s.existed ? `${s.entries.length} record(s)` : "nothing stored yet"}`);
  if (s.lock) line(`Locked: ${describeHolder(s.lock)}; lock id ${s.lock.id}`);
  for (const e of s.entries) {
    const who = e.address ? `${e.address} (${e.key})` : s.resolved ? `${e.key} (not in the tenant any more)` : e.key;
    const what = Object.entries(e.value as Record<string, unknown>).map(([k, v]) => (Array.isArray(e.value) ? valueText(v) : `${k}=${valueText(v)}`));
    line(`  ${who}  ${e.section}: ${what.join(", ")}`);
  }
  return lines.join("");
}
