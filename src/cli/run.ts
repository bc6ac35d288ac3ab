import yargs, { type Argv } from "yargs";
import { PimctlError, PimctlErrors } from "../errors.js";
import { EXIT, ExitWith, type ExitCode } from "./exit-codes.js";
import { problemFormatOf, reportProblems, type ProblemFormat } from "./pipeline-output.js";
import { byPlace, problemsOf } from "../render/errors.js";
import { escapeControls } from "../base/controls.js";
import type { Io } from "./io.js";
import { packageVersion } from "../package.js";
import { commands } from "./commands/index.js";

/**
 * The CLI's option parser. With `parseOnly`, handlers do nothing: used to check
 * that documented command lines (docs, pipeline examples) parse. `columns` fixes the
 * width help is wrapped to (the command reference), else the terminal's.
 */
export function buildParser(argv: string[], io: Io, opts: { parseOnly?: boolean; columns?: number } = {}): Argv {
  let parser = yargs(argv)
    .scriptName("pimctl")
    .usage("$0 <command> [options]\n\nCatalogue-as-code for the PIM API: plan and apply YAML manifests to a tenant.")
    .strict()
    .demandCommand(1, "Name a command; see the list above.")
    .recommendCommands()
    .help()
    .alias("h", "help")
    .version(packageVersion())
    .wrap(opts.columns ?? Math.min(110, process.stdout.columns || 100))
    .completion("completion", "Print a shell completion script (bash/zsh)")
    .epilogue(
      "Docs: README.md, task guides in docs/, every command in docs/reference/. " +
        "Exit codes: 0 ok / no changes, 1 error, 2 changes (--detailed-exitcode), 3 policy, 4 partial apply, 5 stale plan.",
    )
    .exitProcess(false)
    .fail((msg, err) => {
      // yargs wraps what an option's coerce throws (init's --tenant given twice) in its own YError: a usage error.
      if (err?.name === "YError") throw new PimctlError("usage", err.message);
      throw err ?? new PimctlError("usage", msg);
    });
  for (const c of commands(io, opts)) parser = parser.command(opts.parseOnly ? { ...c, handler: () => undefined } : c);
  const declared = parser;
  // yargs hands an option given twice on as an array: a command that reads one value would crash or take
  // a list it does not expect. Options that are lists (array: true) and --tenant (its coerce joins them) keep theirs.
  // getOptions is yargs's own (untyped in @types/yargs): the options declared so far, the command's included.
  const lists = () => new Set((declared as unknown as { getOptions(): { array: string[] } }).getOptions().array);
  return parser.middleware((argv) => refuseRepeated(argv, lists()));
}

/** A single-value option given more than once: a usage error naming it, before the command runs. */
function refuseRepeated(argv: Record<string, unknown>, lists: ReadonlySet<string>): void {
  for (const [name, value] of Object.entries(argv)) {
    if (name === "_" || name.length === 1 || lists.has(name) || !Array.isArray(value)) continue;
    throw new PimctlError("usage", `--${name} was given ${value.length} times; give it once`);
  }
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
    return reportError(err, io, problemFormatOf(argv));
  }
}

/**
 * The one place errors become output and exit codes: for people on stderr
 * (sorted by file, line, column), and as JSON or code quality on stdout when
 * --format asks, as annotations in GitHub Actions.
 */
export function reportError(err: unknown, io: Io, format?: ProblemFormat): ExitCode {
  if (err instanceof ExitWith) return err.code;
  if (err instanceof PimctlErrors || err instanceof PimctlError) {
    const errors = err instanceof PimctlErrors ? err.errors : [err];
    const warnings = err instanceof PimctlErrors ? err.warnings : [];
    for (const w of [...warnings].sort(byPlace)) io.stderr(`warning: ${w.format()}\n`);
    for (const e of [...errors].sort(byPlace)) io.stderr(`error: ${e.format()}\n`);
    if (err instanceof PimctlErrors) io.stderr(`${errors.length} error${errors.length === 1 ? "" : "s"}\n`);
    if (errors.length === 1 && errors[0]!.code === "usage") io.stderr("Run 'pimctl --help' for usage.\n");
    reportProblems(io, problemsOf(errors, warnings), format);
    // One kind of refusal throughout (several versions under a translations rule, say) keeps its code.
    const only = errors.length > 0 && errors.every((e) => e.code === errors[0]!.code) ? errors[0]!.code : undefined;
    return only === "plan_stale" ? EXIT.stale : only === "policy_refused" ? EXIT.policy : EXIT.error;
  }
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  io.stderr(`pimctl: internal error: ${escapeControls(message, { keepNewlines: true })}\n`);
  reportProblems(io, [{ severity: "error", code: "internal", message: err instanceof Error ? err.message : String(err) }], format);
  return EXIT.error;
}
