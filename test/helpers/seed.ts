/**
 * Seeds of the property tests (fast-check, and the seeded random runs of test/helpers/random.ts):
 * a failure prints its seed, and PIMCTL_TEST_SEED=<seed> runs it again (test/README.md says how).
 * Without it a test runs its own seed (the same cases on every run), or fast-check draws one.
 */
import type { Parameters } from "fast-check";

const given = process.env.PIMCTL_TEST_SEED;
/** The seed given to run a failure again, if any. */
const givenSeed = given === undefined || given.trim() === "" ? undefined : Number(given);

/** The seed of a seeded run: the one given in PIMCTL_TEST_SEED, else the test's own. */
export const seedOr = (own: number): number => givenSeed ?? own;

/** The seeds a loop over seeds runs: only the one given, else its own. */
export const seedsOr = (own: readonly number[]): readonly number[] => (givenSeed === undefined ? own : [givenSeed]);

/** What a failure of a seeded run says first: its seed, and how to run it alone. */
export const seedNote = (seed: number): string => `seed ${seed} (run it again: PIMCTL_TEST_SEED=${seed})`;

/**
 * fast-check's parameters for a property, its seed settled: PIMCTL_TEST_SEED (with PIMCTL_TEST_PATH
 * for the shrunk counterexample) when given, else the test's own, if any. fast-check's failure report
 * prints both: `{ seed: -123, path: "4:1:0", endOnFailure: true }`.
 */
export function propertyParams<T>(own: Parameters<T>): Parameters<T> {
  if (givenSeed === undefined) return own;
  const path = process.env.PIMCTL_TEST_PATH;
  return { ...own, seed: givenSeed, ...(path ? { path } : {}) };
}

/**
 * A seeded run: `run` gets the seed (PIMCTL_TEST_SEED, else `own`), and a failure's message starts
 * with the seed's note, whichever assertion failed.
 */
export function seeded<T>(own: number, run: (seed: number) => T): T {
  const seed = seedOr(own);
  const noted = (e: unknown) => {
    if (e instanceof Error) e.message = `${seedNote(seed)}: ${e.message}`;
    return e;
  };
  try {
    const out = run(seed);
    return out instanceof Promise ? (out.catch((e: unknown) => Promise.reject(noted(e))) as T) : out;
  } catch (e) {
    throw noted(e);
  }
}
