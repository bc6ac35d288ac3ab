/**
 * Where commands write: machine formats to stdout, human messages to stderr.
 * Commands receive an Io so tests can capture output without spawning.
 */
import { createInterface } from "node:readline/promises";

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout is a terminal (drives colour of the plan). */
  isTTY: boolean;
  /** Whether stderr is a terminal (drives live progress lines). */
  stderrIsTTY: boolean;
  /** Whether a person can answer questions (stdin and stderr are terminals). */
  interactive: boolean;
  /** Ask a question on the terminal; only called when interactive. */
  ask: (question: string) => Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted when the process is asked to stop (SIGINT, SIGTERM, SIGHUP); see signals.ts. */
  interrupt?: AbortSignal;
}

export function processIo(): Io {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    isTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    ask: async (question) => {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        // Ctrl-C at a question is a "no", not a hang.
        return await new Promise<string>((resolve) => {
          rl.once("SIGINT", () => resolve(""));
          rl.question(question).then(resolve, () => resolve(""));
        });
      } finally {
        rl.close();
      }
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** An Io that records output, for tests and for embedding pimctl in other programs. */
export function memoryIo(opts: { env?: NodeJS.ProcessEnv; cwd: string; answers?: string[] }): Io & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const answers = [...(opts.answers ?? [])];
  return {
    out,
    err,
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    isTTY: false,
    stderrIsTTY: false,
    interactive: answers.length > 0,
    ask: async (q) => {
      err.push(q);
      return answers.shift() ?? "";
    },
    env: opts.env ?? {},
    cwd: opts.cwd,
  };
}
