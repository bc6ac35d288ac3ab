#!/usr/bin/env node
/**
 * Regenerates the vendored outputs of the translators' tools (test/fixtures/translations/interop,
 * README.md there): runs test/translations/interop.test.ts's live flows on today's exports with
 * PIMCTL_WRITE_INTEROP_FIXTURES=1, which copies each tool's output (and pimctl's exports) into the
 * fixtures, then the whole file again so the vendored outputs are checked as committed.
 * Needs translate-toolkit and GNU gettext (apt-get install translate-toolkit gettext).
 */
import { spawnSync } from "node:child_process";

const vitest = (args, env) =>
  spawnSync("npx", ["vitest", "run", "test/translations/interop.test.ts", ...args], {
    stdio: "inherit",
    env: { ...process.env, PIMCTL_REQUIRE_TRANSLATE_TOOLKIT: "1", ...env },
  }).status;

const written = vitest(["-t", "live"], { PIMCTL_WRITE_INTEROP_FIXTURES: "1" });
if (written !== 0) process.exit(written ?? 1);
process.exit(vitest([], {}) ?? 1);
