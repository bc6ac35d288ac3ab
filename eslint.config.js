// ESLint runs typescript-eslint's type-aware promise rules: a promise nobody awaits or
// catches becomes an unhandled rejection, which kills the process (one already failed a CI
// run). The compiler's own checks stay in `npm run typecheck`; Prettier owns the layout, so
// no stylistic rule lives here.
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  // The rules need types: TypeScript only (the one script, scripts/build-if-stale.mjs, has none).
  { ignores: ["dist/", "dist-check/", "coverage/", "node_modules/", "test/data/", "examples/", "**/*.js", "**/*.mjs"] },
  {
    files: ["**/*.ts"],
    plugins: { "@typescript-eslint": tseslint.plugin },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // vitest.config.ts is in tsconfig.json's include (the house test of the speeds reads its projects).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      // Forwarding a caught value (typed unknown) to reject() is how a rethrow crosses a
      // promise boundary; only rejecting with a value known not to be an Error is flagged.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
    },
  },
  // Functions you read in one sitting (issue 34), in the product's code; tests are lists of cases.
  // test/house/function-size.test.ts plants functions over these limits and sees them fail.
  {
    files: ["src/**/*.ts"],
    rules: {
      // About a screen: a function longer than this does several jobs; split it along its seams
      // (read, decide, write), never into numbered parts. Blank lines and comments are free.
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
      // 25, the "modified" count (a switch is one decision, its cases a table read at a glance).
      // ESLint's count also takes every `?.`, `??`, `||` and default value, which this code uses
      // to read optional API fields, not to branch: at the default 20 it flagged 41 functions,
      // among them short renderers and lexers that read in one sitting; above 25 (18 functions
      // when the rule came) every one flagged was doing several jobs.
      complexity: ["error", { max: 25, variant: "modified" }],
    },
  },
);
