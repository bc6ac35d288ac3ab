#!/usr/bin/env node
/**
 * `npm run build`, unless dist/ is newer than everything it is built from.
 *
 * It is the `prepare` script, which npm runs on `npm ci` / `npm install` here
 * and, for a project installing pimctl from its Git URL, twice in the clone
 * npm makes (once in its `npm install` there, once before packing it): the
 * second run, and `npm test` / `npm run demo` right after `npm ci`, find dist/
 * up to date and skip a 10-second build. `npm run build` always builds.
 *
 * It is also the first half of `prepack` (npm pack, npm publish): the tarball ships dist/.
 *
 * Up to date: dist/manifest/validators.generated.js (the last file every
 * build writes) is newer than every file and folder under src/ (a folder's
 * time changes when a file in it is added, removed or renamed), the tsconfig
 * files and package.json.
 *
 * A build it cannot run (a fresh clone: no node_modules, so no tsc) or one
 * that fails ends with one line saying what to do, never Node's stack trace.
 */
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { restoreLeftover } from "./pack-manifest.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const lastBuilt = path.join(root, "dist", "manifest", "validators.generated.js");

function newest(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const e of readdirSync(p)) t = Math.max(t, newest(path.join(p, e)));
  return t;
}

function builtTime() {
  try {
    return statSync(lastBuilt).mtimeMs;
  } catch {
    return -1; // never built here
  }
}

/** What the person ran, to run again once the tools are there. */
const AGAIN = { prepack: "npm pack", test: "npm test", demo: "npm run demo" }[process.env.npm_lifecycle_event ?? ""] ?? "this command";

restoreLeftover(`before ${process.env.npm_lifecycle_event ?? "building"}`);
const sources = ["src", "tsconfig.json", "tsconfig.build.json", "package.json"].map((f) => path.join(root, f));
if (builtTime() > Math.max(...sources.map(newest))) {
  process.stderr.write("pimctl: dist/ is up to date with src/ (npm run build rebuilds it anyway)\n");
} else if (!existsSync(path.join(root, "node_modules", "typescript", "package.json"))) {
  process.stderr.write(
    "pimctl: dist/ is not built, and the tools that build it are not installed here: run `npm ci` first (it installs them from " +
      `package-lock.json and builds dist/), then ${AGAIN} again\n`,
  );
  process.exit(1);
} else {
  try {
    execSync("npm run --silent build", { cwd: root, stdio: "inherit" });
  } catch (e) {
    process.stderr.write("pimctl: building dist/ failed (the compiler's messages are above)\n");
    process.exit(typeof e.status === "number" && e.status > 0 ? e.status : 1);
  }
}
