import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { E2E, SLOW } from "./test/speeds.js";

/**
 * The longest file first across the three projects, as before there were projects: the default
 * sequencer runs them one project after another, which leaves the slow files for the end and the
 * run's last minutes on one core. A file that failed, or has no recorded time, goes first.
 */
class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const last = (f: TestSpecification) => cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`);
    const rank = (f: TestSpecification) => {
      const r = last(f);
      return r === undefined || r.failed ? Infinity : r.duration;
    };
    return Promise.resolve([...files].sort((a, b) => rank(b) - rank(a)));
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Forks keep emulator servers of parallel files apart. Most of the suite waits (on latency
    // the emulator injects, on git and npm processes, on signals), so three files at a time
    // finish sooner on a 2-core machine than the default of one worker per core less one.
    pool: "forks",
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    // Three speeds (test/speeds.ts lists e2e and slow; test/README.md says what goes where):
    // `npm run test:unit` on every save, `npm test` runs all three.
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...E2E, ...SLOW],
          // A unit file that starts a process or opens a socket fails, naming where it belongs.
          setupFiles: ["test/helpers/unit-guard.ts"],
          // Plain code on plain data: the files of a worker share their modules, which halves the
          // project's time spent importing (the e2e and slow files keep a fresh module graph each).
          isolate: false,
        },
      },
      { extends: true, test: { name: "e2e", include: [...E2E] } },
      { extends: true, test: { name: "slow", include: [...SLOW] } },
    ],
  },
});
