import yargs, { type Argv } from "yargs";
import { PimctlError, PimctlErrors } from "../errors.js";
import { EXIT, ExitWith, type ExitCode } from "./exit-codes.js";
import type { Io } from "./io.js";
import { packageVersion } from "../package.js";
import { commands } from "./commands/index.js";

/**
 * The CLI's option parser. With `parseOnly`, handlers do nothing: used to check
 * that documented command lines (README, pipeline examples) parse.
 */
export function buildParser(argv: string[], io: Io, opts: { parseOnly?: boolean } = {}): Argv {
  let parser = yargs(argv)
    .scriptName("pimctl")
    .usage("$0 <command> [options]\n\nCatalogue-as-code for the PIM API: plan and apply YAML manifests to a tenant.")
    .strict()
    .demandCommand(1, "Name a command; see the list above.")
    .recommendCommands()
    .help()
    .alias("h", "help")
    .version(packageVersion())
    .wrap(Math.min(110, process.stdout.columns || 100))
    .completion("completion", "Print a shell completion script (bash/zsh)")
    .epilogue("Docs: README.md. Exit codes: 0 ok / no changes, 1 error, 2 changes (--detailed-exitcode), 3 policy, 4 partial apply, 5 stale plan.")
    .exitProcess(false)
    .fail((msg, err) => {
      throw err ?? new PimctlError("usage", msg);
    });
  for (const c of commands(io)) parser = parser.command(opts.parseOnly ? { ...c, handler: () => undefined } : c);
  return parser;
}

export async function run(argv: string[], io: Io): Promise<ExitCode> {
  try {
    // A parse callback makes yargs hand help, version and completion text to us instead of printing.
    let usageError: Error | undefined;
    await buildParser(argv, io).parseAsync(argv, {}, (err, _args, output) => {
      if (err) usageError = err;
      else if (output) io.stdout(output.endsWith("\n") ? output : `${output}\n`);
    });
    if (usageError) throw usageError;
    return EXIT.ok;
  } catch (err) {
    return reportError(err, io);
  }
}

export function reportError(err: unknown, io: Io): ExitCode {
  if (err instanceof ExitWith) return err.code;
  if (err instanceof PimctlErrors) {
    for (const e of err.errors) io.stderr(`error: ${e.format()}\n`);
    io.stderr(`${err.errors.length} error${err.errors.length === 1 ? "" : "s"}\n`);
    return EXIT.error;
  }
  if (err instanceof PimctlError) {
    io.stderr(`error: ${err.format()}\n`);
    if (err.code === "usage") io.stderr("Run 'pimctl --help' for usage.\n");
    return err.code === "plan_stale" ? EXIT.stale : EXIT.error;
  }
  io.stderr(`pimctl: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  return EXIT.error;
}
