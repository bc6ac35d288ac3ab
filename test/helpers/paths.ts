/** Where the repository is, for tests that read its files or run what it built (and import nothing else). */
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "../..");
