/**
 * Where commands write: machine formats to stdout, human messages to stderr.
 * Commands receive an Io so tests can capture output without spawning.
 */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stderr/stdout are terminals (drives colour and live progress). */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIo(): Io {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
    cwd: process.cwd(),
  };
}
