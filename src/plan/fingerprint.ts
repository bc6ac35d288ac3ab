/** Fingerprints: a stable hash of a remote record, so a saved plan can notice drift. */
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";

/** Stable hash of a JSON-able value (manifest source locations left out: they are not the tenant's). */
export function fingerprint(value: unknown): string {
  // Every create fingerprints "nothing there": hashed once, not once per action.
  if (value === null) return (nullFingerprint ??= hash(null));
  return hash(value);
}

let nullFingerprint: string | undefined;

function hash(value: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(value, (k) => k === "source"))
    .digest("hex")
    .slice(0, 16);
}
