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
 * Up to date: dist/manifest/validators.generated.js (the last file every
 * build writes) is newer than every file and folder under src/ (a folder's
 * time changes when a file in it is added, removed or renamed), the tsconfig
 * files and package.json.
 */
import { execSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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

const sources = ["src", "tsconfig.json", "tsconfig.build.json", "package.json"].map((f) => path.join(root, f));
if (builtTime() > Math.max(...sources.map(newest))) {
  process.stderr.write("pimctl: dist/ is up to date with src/ (npm run build rebuilds it anyway)\n");
} else {
  execSync("npm run --silent build", { cwd: root, stdio: "inherit" });
}
