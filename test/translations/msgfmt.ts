/**
 * GNU gettext's msgfmt, the reference checker for PO files. Where it is not
 * installed the PO checks skip with one line saying so, unless
 * PIMCTL_REQUIRE_MSGFMT=1 (set by .ci/run): then its absence fails.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const MSGFMT_REQUIRED = process.env.PIMCTL_REQUIRE_MSGFMT === "1";
export const HAS_MSGFMT = spawnSync("msgfmt", ["--version"], { stdio: "ignore" }).status === 0;
export const MSGFMT_SKIP = "msgfmt (GNU gettext) is not installed: apt-get install gettext to check PO files";

/** msgfmt --check on the text; throws with msgfmt's own message when it refuses the file. */
export function msgfmtCheck(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "pimctl-po-"));
  try {
    const file = path.join(dir, "check.po");
    writeFileSync(file, text);
    // stderr carries warnings; a refusal is a non-zero exit, which execFileSync throws with msgfmt's message.
    return execFileSync("msgfmt", ["--check", "--check-header", "-o", path.join(dir, "out.mo"), file], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
