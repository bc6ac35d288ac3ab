/** Reading a tenant (read.ts), and what a plan starts before the manifests are loaded (started.ts). */
export { readState, type ReadStateOptions } from "./read.js";
export { resolveVersionIds } from "./versions.js";
export { startReads, startVersionLists, type StartedReads } from "./started.js";
