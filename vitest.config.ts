import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Forks keep emulator servers of parallel files apart. Most of the suite waits (on latency
    // the emulator injects, on git and npm processes, on signals), so three files at a time
    // finish sooner on a 2-core machine than the default of one worker per core less one.
    pool: "forks",
    maxWorkers: 3,
  },
});
