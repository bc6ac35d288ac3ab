/**
 * Set up before every file of the unit project (vitest.config.ts): a unit test starts no process,
 * listens on no port and opens no connection, so these throw, naming where the file belongs. The
 * house test (test/house/speeds.test.ts) finds the same by reading imports; this catches what an
 * import does not show (the CLI run in-process starting an emulator, a fetch).
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";

const MOVE = "list the file under e2e or slow in test/speeds.ts";

const refuse = (what: string) => () => {
  throw new Error(`a unit test ${what}: ${MOVE}`);
};

const processStarters = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
const writable = childProcess as unknown as Record<(typeof processStarters)[number], unknown>;
for (const name of processStarters) writable[name] = refuse(`starts a process (child_process.${name})`);
// Named imports of node:child_process see the replacements too.
syncBuiltinESMExports();

net.Server.prototype.listen = refuse("listens on a port") as never;
net.Socket.prototype.connect = refuse("opens a network connection") as never;
