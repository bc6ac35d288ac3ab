/**
 * npm run bench: every benchmark in turn, each in its own process (figures only, never pass/fail).
 * `npm run bench -- --tenants N` runs the fleet benchmark with N tenants instead of 20.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";

const here = path.dirname(new URL(import.meta.url).pathname);
const { values: args } = parseArgs({ options: { tenants: { type: "string" } } });
/** The fleet's emulator holds N copies of the taxonomy in this one process: more heap than Node's default. */
const nodeArgs: Record<string, string[]> = { fleet: ["--max-old-space-size=8192"] };
const scriptArgs: Record<string, string[]> = { fleet: args.tenants ? ["--tenants", args.tenants] : [] };
for (const name of ["plan", "manifest", "import", "emulator", "state", "wire", "scale", "fleet"]) {
  console.log(`\n== ${name}`);
  execFileSync(process.execPath, [...(nodeArgs[name] ?? []), path.join(here, `${name}.js`), ...(scriptArgs[name] ?? [])], { stdio: "inherit" });
}
