/**
 * Which Chromium the browser test drives, in this order:
 * 1. $CHROMIUM_PATH;
 * 2. a browser the system has (Debian's and Ubuntu's chromium, Google Chrome on
 *    Linux and macOS, Chromium on macOS);
 * 3. on Linux x64, the Chromium that `npm ci` installed with @sparticuz/chromium,
 *    a registry package that ships the binary inside it (unpacked to the temp
 *    folder on first use; nothing is downloaded at run time).
 * Without any of them the test reports itself skipped with one line saying how to
 * get one, unless PIMCTL_REQUIRE_BROWSER=1 (set by .ci/run): then it fails.
 */
import { existsSync } from "node:fs";

const SYSTEM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/snap/bin/chromium",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

export interface FoundBrowser {
  executablePath: string;
  /** Where it came from, for the test's log line. */
  source: string;
}

export const HOW_TO_GET_ONE =
  "no Chromium found: set CHROMIUM_PATH, install one (Debian/Ubuntu: apt-get install chromium), or run on Linux x64 where npm ci brings @sparticuz/chromium";

export async function findBrowser(): Promise<FoundBrowser | undefined> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    // A path that was asked for and is not there is a mistake to report, not a reason to look elsewhere.
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is ${fromEnv}, which does not exist`);
    return { executablePath: fromEnv, source: "CHROMIUM_PATH" };
  }
  const system = SYSTEM_PATHS.find((p) => existsSync(p));
  if (system) return { executablePath: system, source: "the system" };
  if (process.platform === "linux" && process.arch === "x64") {
    const { default: chromium } = await import("@sparticuz/chromium");
    return { executablePath: await chromium.executablePath(), source: "@sparticuz/chromium" };
  }
  return undefined;
}

/** Set by .ci/run: on CI a missing browser fails the run instead of skipping the test. */
export const browserRequired = process.env.PIMCTL_REQUIRE_BROWSER === "1";
