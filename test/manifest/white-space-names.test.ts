/**
 * Issue 23, item 4: `name: Acme<NBSP>` is the name "Acme\u00a0" whichever parser
 * reads the file (the fast path or, once an unrelated field is a block scalar,
 * the `yaml` library), and it is warned about, naming the character, for every
 * Unicode white-space class.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadManifests } from "../../src/manifest/index.js";
import { edgeWhiteSpace } from "../../src/manifest/white-space.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

const NON_YAML_WHITE_SPACE = [
  "\u00a0",
  "\u1680",
  ..."\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
  "\v",
  "\f",
  "\u0085",
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-ws-"));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function load(text: string) {
  await writeFile(path.join(dir, "brands.yaml"), text);
  return loadManifests(dir, { cwd: dir });
}

describe("white space around names", () => {
  it("every class but space and tab is kept, the same with and without a block scalar in the file, and warned about", async () => {
    for (const c of NON_YAML_WHITE_SPACE) {
      const plain = `brands:\n  - name: Acme${c}\n    desc: x\n  - name: Zenith\n`;
      const block = plain.replace("desc: x", "desc: |-\n      x");
      const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
      for (const text of [plain, block]) {
        const loaded = await load(text);
        expect(loaded.errors, code).toEqual([]);
        expect(
          loaded.catalogue.brands.map((b) => b.name),
          code,
        ).toEqual([`Acme${c}`, "Zenith"]);
        expect(
          loaded.warnings.map((w) => w.message),
          code,
        ).toEqual([`brand "Acme${c}": the name ${JSON.stringify(`Acme${c}`)} has leading or trailing whitespace (kept as written)`]);
        expect(loaded.warnings[0]!.details[0]?.startsWith(`it ends with ${code} (`), code).toBe(true);
      }
    }
  });

  it("names each character, at the start and at the end", () => {
    expect(edgeWhiteSpace("\u3000Acme\u00a0 ")).toBe("starts with U+3000 (ideographic space) and ends with U+00A0 (no-break space), U+0020 (space)");
    expect(edgeWhiteSpace("Acme\u0085")).toBe("ends with U+0085 (next line)");
    expect(edgeWhiteSpace("Ac\u00a0me")).toBeUndefined();
    expect(edgeWhiteSpace("\u00a0")).toBeUndefined(); // only white space: the schema refuses it
  });
});

describe("pimctl validate and plan", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject({ files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\u00a0\n" } });
    createBrand(p.emulator.store("demo"), { name: "Acme" });
  });
  afterAll(async () => p.close());

  it("plan the same actions whether or not an unrelated field is a block scalar (the issue's rename appearing from nowhere)", async () => {
    const actions = async (text: string) => {
      await p.write("catalogue/brands.yaml", text);
      const plan = await p.cli(["plan", "--format", "json"]);
      expect(plan.code, plan.stderr).toBe(0);
      return (JSON.parse(plan.stdout) as { actions: Array<{ address: string; op: string }> }).actions.map((a) => `${a.op} ${a.address}`);
    };
    const plain = await actions("brands:\n  - name: Acme\u00a0\n    desc: Tools\n");
    const block = await actions("brands:\n  - name: Acme\u00a0\n    desc: |-\n      Tools\n");
    expect(plain).toEqual(block);
    // The name is the one written, no-break space included: a new brand, not the tenant's "Acme".
    expect(plain.some((a) => a.includes("Acme\u00a0"))).toBe(true);
    await p.write("catalogue/brands.yaml", "brands:\n  - name: Acme\u00a0\n");
  });

  it("prints the warning with the character it could not show, and exits 0", async () => {
    const v = await p.cli(["validate"]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toContain(
      'warning: catalogue/brands.yaml:2:5: brand "Acme\u00a0": the name "Acme\u00a0" has leading or trailing whitespace (kept as written)\n  it ends with U+00A0 (no-break space)\n',
    );
  });
});
