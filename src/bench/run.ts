/** npm run bench: every benchmark in turn, each in its own process (figures only, never pass/fail). */
import { execFileSync } from "node:child_process";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
for (const name of ["plan", "manifest", "import", "emulator", "state", "wire", "scale"]) {
  console.log(`\n== ${name}`);
  execFileSync(process.execPath, [path.join(here, `${name}.js`)], { stdio: "inherit" });
}
