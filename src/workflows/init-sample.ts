/**
 * The sample manifest `pimctl init` writes, and how `export` knows it untouched: by the SHA-256 of
 * its text without the editor's schema line (whose path differs per project) and with line endings
 * made \n (a checkout may turn them into \r\n). A sample someone edited is a hand-written file like
 * any other. When the sample changes, its new hash is added to SAMPLE_HASHES and the old ones stay:
 * a project initialised by an older pimctl still has the old sample.
 */
import { createHash } from "node:crypto";

/** The sample's text, with its schema line pointing at `schemaRef`. */
export function sampleManifest(schemaRef: string): string {
  return [
    `# yaml-language-server: $schema=${schemaRef}`,
    "display_groups:",
    "  - name: Basics",
    "    in_navigation: true",
    "attributes:",
    "  - name: Colour",
    "    type: selectbox",
    "    display_group: Basics",
    "    publish: true",
    "    values:",
    "      - value: Red",
    "      - value: Blue",
    "",
  ].join("\n");
}

/** Every sample init has written (test/cli/init-adopt.test.ts checks today's is listed). */
export const SAMPLE_HASHES: readonly string[] = [
  "4fde2f2c49df5518619abf58b2cee2f38e1392e381aad49cff0e5e30afa568c6", // pimctl 0.1.0
];

export function sampleHash(text: string): string {
  const body = text.replace(/\r\n/g, "\n").replace(/^\uFEFF?# yaml-language-server: \$schema=[^\n]*\n/, "");
  return createHash("sha256").update(body).digest("hex");
}

/** Whether a manifest's text is init's sample, untouched. */
export function isUntouchedSample(text: string): boolean {
  return SAMPLE_HASHES.includes(sampleHash(text));
}
