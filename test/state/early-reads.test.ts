/**
 * The reads a plan starts before its manifests are parsed: the version names
 * come from a scan of the manifests' text (src/manifest/kinds-scan.ts), and
 * the attribute list of each version a channel publishes starts when the
 * channels answer (startVersionLists), so the largest answers are not
 * requested only after the parse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import { readState, startReads, startVersionLists } from "../../src/state/index.js";
import { scanManifests, scanVersionNames } from "../../src/manifest/kinds-scan.js";
import { loadManifests } from "../../src/manifest/index.js";

describe("the version names a scan of the manifests' text finds", () => {
  it("block maps, flow maps, quoted keys, under list items; not the keys nested below a version", () => {
    const text = [
      "attributes:",
      "  - name: Colour",
      "    versions:",
      "      French:",
      "        name: Couleur",
      "        note: 'x: y'",
      '      "German": { name: Farbe }',
      "    values:",
      "      - value: Red",
      "        versions: { Italian: Rosso, 'Spanish': Rojo, Dutch: { x: 1 } }",
      "      - versions:",
      "          # a comment line",
      "          Polish: Czerwony",
      "",
      "          Czech: Červená",
      "brands:",
      "  - name: Acme",
      "    versions: {}",
      "    desc: versions: not a key here",
    ].join("\n");
    expect([...scanVersionNames(text)].sort()).toEqual(["Czech", "Dutch", "French", "German", "Italian", "Polish", "Spanish"]);
    // Windows line ends read the same.
    expect([...scanVersionNames(text.replace(/\n/g, "\r\n"))].sort()).toEqual(["Czech", "Dutch", "French", "German", "Italian", "Polish", "Spanish"]);
  });

  it("finds what the loaded catalogue names on the shipped examples", async () => {
    const dir = path.resolve(import.meta.dirname, "../../examples/catalogue");
    const scan = (await scanManifests(dir))!;
    const loaded = await loadManifests(dir);
    expect(scan.versions()).toEqual(loaded.catalogue.versions);
    expect(scan.kinds).toEqual(loaded.catalogue.managed);
  });
});

describe("version lists start when the channels answer", () => {
  let emu: Emulator;
  let api: PimClient;
  let dir: string;
  const gets: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, tenants: [{ hash: "demo", token: "t" }] });
    api = createClient({
      tenant: "demo",
      baseUrl: emu.tenantUrl("demo"),
      token: "t",
      logHttp: (l) => void (l.startsWith("GET ") && gets.push(l.split(" ")[1]!)),
    });
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-early-"));
  });
  afterAll(async () => {
    await api.close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("for each scanned name a channel publishes, once; readState reuses them and reads nothing twice", async () => {
    await writeFile(
      path.join(dir, "a.yaml"),
      "attributes:\n  - name: Colour\n    type: text\n    versions:\n      French: { name: Couleur }\n      Klingon: { name: Qul }\n",
    );
    const reads = startReads(api, ["attributes"]);
    // Klingon is published by no channel: it is not read.
    startVersionLists(api, reads, ["French", "Klingon"], undefined);
    await reads.channels;
    await new Promise((r) => setImmediate(r));
    expect([...reads.attributeVersions.keys()]).toEqual([2]);
    const desired = (await loadManifests(dir)).catalogue;
    const early = await readState(api, { kinds: ["attributes"], desired, started: reads });
    const paths = gets.splice(0);
    expect(paths.filter((p) => p.startsWith("/attributes/version/"))).toEqual(["/attributes/version/2"]);

    const late = await readState(api, { kinds: ["attributes"], desired });
    expect(late).toEqual(early);
    expect(gets.sort()).toEqual(paths.sort());
  });
});
