/**
 * Which Chromium the browser tests drive, in this order:
 * 1. $CHROMIUM_PATH (any Chromium or Chrome);
 * 2. a browser the system has: chromium, chromium-browser (Debian, Ubuntu),
 *    google-chrome or google-chrome-stable on PATH, or Chrome or Chromium among
 *    macOS's applications.
 * No browser comes with `npm ci`: a Git-URL install of pimctl installs the
 * devDependencies to build, and must not download one (`.ci/run` installs
 * Debian's chromium with apt, as it does gettext).
 * Without a browser the tests report themselves skipped with one line saying how
 * to get one, unless PIMCTL_REQUIRE_BROWSER=1 (set by .ci/run): then they fail.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** The names a system Chromium or Chrome goes by on PATH (.ci/run looks for the same names before it installs one). */
const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
const MACOS_APPS = ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"];

export interface FoundBrowser {
  executablePath: string;
  /** Where it came from, for the test's log line. */
  source: string;
}

export const HOW_TO_GET_ONE =
  "no Chromium found: install one (Debian/Ubuntu: apt-get install chromium; macOS: Google Chrome) or set CHROMIUM_PATH to a Chromium or Chrome";

export function findBrowser(): FoundBrowser | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    // A path that was asked for and is not there is a mistake to report, not a reason to look elsewhere.
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is ${fromEnv}, which does not exist`);
    return { executablePath: fromEnv, source: "CHROMIUM_PATH" };
  }
  const onPath = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  const candidates = [...NAMES.flatMap((name) => onPath.map((dir) => path.join(dir, name))), ...MACOS_APPS];
  const system = candidates.find((p) => existsSync(p));
  return system ? { executablePath: system, source: "the system" } : undefined;
}

/** Set by .ci/run: on CI a missing browser fails the run instead of skipping the test. */
export const browserRequired = process.env.PIMCTL_REQUIRE_BROWSER === "1";
