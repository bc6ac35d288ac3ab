/**
 * Issue 23, item 7: a manifest or a tenant must not write to the reviewer's
 * terminal. Names, values and long texts carry ESC sequences (erase line,
 * cursor up, a window title ended by BEL, conceal), BEL, CR, DEL, C1 controls
 * (U+009B, a one-character CSI; U+0085) and bidi overrides and isolates; they
 * go through validate, plan (text, markdown, json), apply (the plan printed
 * before the question, the failed lines), diff, drift and state show, run as
 * real processes. The bytes of stdout and stderr hold no control character but
 * the newlines of the layout, and the escaped forms appear.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { HttpError } from "../../src/emulator/store.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { runPimctl } from "../helpers/spawn-cli.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

/** One of each: C0 (ESC sequences, BEL, CR), DEL, C1, bidi overrides and isolates. */
const EVIL_NAME = "Evil\u001b[2K\u001b[1A\u0007\u009b2K\u202eemaN\u202c";
const GHOST_NAME = "Ghost\u001b]0;pwned\u0007\u2066x\u2069\u0085";
const OTHER_NAME = "Other\u001b[8m\u007f\u202d";
/** The same, as YAML double-quoted escapes (`\e` is ESC, `\a` BEL, `\x9b` a C1 CSI). */
const EVIL_YAML = "Evil\\e[2K\\e[1A\\a\\x9b2K\\u202eemaN\\u202c";
const NEW_YAML = "New\\e]0;title\\a\\u2067";
const NEW_NAME = "New\u001b]0;title\u0007\u2067";

/** How each appears once escaped (src/base/controls.ts: JSON's escapes). */
const SHOWN = {
  evil: "Evil\\u001b[2K\\u001b[1A\\u0007\\u009b2K\\u202eemaN\\u202c",
  ghost: "Ghost\\u001b]0;pwned\\u0007\\u2066x\\u2069\\u0085",
  other: "Other\\u001b[8m\\u007f\\u202d",
  newName: "New\\u001b]0;title\\u0007\\u2067",
};

/** Every raw control character in `bytes` (offset and bytes): C0 but LF, DEL, C1 (UTF-8 C2 80–9F), bidi (E2 80 AA–AE, E2 81 A6–A9). */
function rawControls(bytes: Buffer): string[] {
  const found: string[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const next = bytes[i + 1] ?? 0;
    const third = bytes[i + 2] ?? 0;
    if ((b < 0x20 && b !== 0x0a) || b === 0x7f) found.push(`${i}:${b.toString(16)}`);
    else if (b === 0xc2 && next >= 0x80 && next <= 0x9f) found.push(`${i}:c2${next.toString(16)}`);
    else if (b === 0xe2 && ((next === 0x80 && third >= 0xaa && third <= 0xae) || (next === 0x81 && third >= 0xa6 && third <= 0xa9)))
      found.push(`${i}:e2${next.toString(16)}${third.toString(16)}`);
  }
  return found;
}

/** pimctl's own colours (chalk, level 1: `ESC [ n m`) taken out, the rest checked byte by byte. */
function withoutOwnColours(bytes: Buffer): Buffer {
  return Buffer.from(bytes.toString("latin1").replace(/\u001b\[(?:1|2|22|3[1-9])m/g, ""), "latin1");
}

interface Run {
  code: number;
  stdout: Buffer;
  stderr: Buffer;
  /** Both streams as text, for the escaped forms. */
  text: string;
}

let p: TestProject;

/** `pimctl ...args` as a real process in the project, with a clean environment. */
async function pimctl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const r = await runPimctl(p.dir, args, { PATH: process.env.PATH, ...p.env, ...env });
  const { stdout, stderr } = r.bytes;
  return { code: r.code ?? -1, stdout, stderr, text: `${r.stdout}${r.stderr}` };
}

function expectClean(r: Run): void {
  expect(rawControls(r.stdout), r.stdout.toString("utf8")).toEqual([]);
  expect(rawControls(r.stderr), r.stderr.toString("utf8")).toEqual([]);
}

const MANIFEST = [
  "brands:",
  `  - name: "${EVIL_YAML}"`,
  // Long text: a unified diff against the tenant's (hostile) text, line by line.
  `    desc: "kept line\\nnew \\e[2K\\e[1A\\a line\\nC1 \\x9b31m and \\u202ebidi\\u202c\\nlast\\r"`,
  `    seo_title: "title \\x7f\\e[8mhidden\\N"`,
  `    web_ids: { Webshop: "web\\e[1Aid\\u2066" }`,
  `  - name: "${NEW_YAML}"`,
  `    seo_title: "short \\e[2K\\a"`,
  `    web_ids: { Webshop: "n1" }`,
  "",
].join("\n");

beforeAll(async () => {
  p = await testProject({ tenants: ["demo", "other"], files: { "catalogue/brands.yaml": MANIFEST } });
  const demo = p.emulator.store("demo");
  createBrand(demo, { name: EVIL_NAME, desc: "kept line\nold \u001b]0;pwned\u0007 line\n\u009b2K erased\u202e\nlast\n" });
  createBrand(demo, { name: GHOST_NAME });
  createBrand(p.emulator.store("other"), { name: OTHER_NAME, desc: "the other \u001b[2K\u0007 tenant" });
}, 30_000);
afterAll(async () => p?.close());

describe("control characters from manifests and tenants are shown, never sent to the terminal", () => {
  it("validate: errors and GitHub annotations escape names and keys; --format json stays a valid document", async () => {
    await p.write(
      "bad/x.yaml",
      ["brands:", `  - name: "${EVIL_YAML}"`, `  - name: "${EVIL_YAML}"`, `    "\\e[31mcolour\\u202e": red`, `    desc: 12`, ""].join("\n"),
    );
    const text = await pimctl(["validate", "bad"], { GITHUB_ACTIONS: "true" });
    expect(text.code).toBe(1);
    expectClean(text);
    expect(text.text).toContain(`brand "${SHOWN.evil}" is declared twice`);
    expect(text.text).toContain('unknown field "\\u001b[31mcolour\\u202e"');
    expect(text.text).toMatch(/::error file=bad\/x\.yaml,line=3,col=5,title=pimctl duplicate::brand "Evil\\u001b\[2K/);

    const json = await pimctl(["validate", "bad", "--format", "json"]);
    expectClean(json);
    const doc = JSON.parse(json.stdout.toString("utf8")) as { errors: Array<{ message: string }> };
    // The same document: a JSON reader gets the names back as written.
    expect(doc.errors.map((e) => e.message)).toContain(`brand "${EVIL_NAME}" is declared twice (first at bad/x.yaml:2:5)`);
  });

  it("plan: text (with and without colour) and markdown escape names, values and long-text diff lines", async () => {
    const plain = await pimctl(["plan", "--tenant", "demo", "--show-unmanaged"]);
    expect(plain.code, plain.stderr.toString()).toBe(0);
    expectClean(plain);
    const out = plain.stdout.toString("utf8");
    expect(out).toContain(`~ brand["${SHOWN.evil}"]`);
    expect(out).toContain("-old \\u001b]0;pwned\\u0007 line");
    expect(out).toContain("+new \\u001b[2K\\u001b[1A\\u0007 line");
    expect(out).toContain("+C1 \\u009b31m and \\u202ebidi\\u202c");
    expect(out).toContain("-\\u009b2K erased\\u202e");
    expect(out).toContain("+last\\r");
    expect(out).toContain('"title \\u007f\\u001b[8mhidden\\u0085"');
    expect(out).toContain(`+ brand["${SHOWN.newName}"]`);
    expect(out).toContain(`? brand["${SHOWN.ghost}"]`);

    // pimctl's own colours stay; the data's sequences are shown, not sent.
    const coloured = await pimctl(["plan", "--tenant", "demo", "--show-unmanaged"], { FORCE_COLOR: "1" });
    expect(coloured.stdout.toString("latin1")).toContain("\u001b[32m+\u001b[39m");
    expect(rawControls(withoutOwnColours(coloured.stdout)), coloured.stdout.toString("utf8")).toEqual([]);
    expect(coloured.stdout.toString("utf8")).toContain("\u001b[32m+new \\u001b[2K\\u001b[1A\\u0007 line\u001b[39m");

    const md = await pimctl(["plan", "--tenant", "demo", "--format", "markdown", "--show-unmanaged"]);
    expectClean(md);
    const comment = md.stdout.toString("utf8");
    expect(comment).toContain(`~ brand["${SHOWN.evil}"]`);
    expect(comment).toContain("+       new \\u001b[2K\\u001b[1A\\u0007 line");
    expect(comment).toContain(`- \`brand["${SHOWN.ghost}"]\``);

    const json = await pimctl(["plan", "--tenant", "demo", "--format", "json", "--out", "saved.json"]);
    expectClean(json);
    const plan = JSON.parse(json.stdout.toString("utf8")) as { actions: Array<{ address: string }> };
    expect(plan.actions.map((a) => a.address)).toContain(`brand[${JSON.stringify(EVIL_NAME)}]`);
    // The saved plan: escaped bytes, the same plan (its digest holds), and the dry run's request lines.
    expect(rawControls(await readFile(path.join(p.dir, "saved.json")))).toEqual([]);
    const dry = await pimctl(["apply", "saved.json", "--tenant", "demo", "--dry-run"]);
    expect(dry.code, dry.stderr.toString()).toBe(0);
    expectClean(dry);
    expect(dry.stdout.toString("utf8")).toContain('"seo_title":"title \\u007f\\u001b[8mhidden\\u0085"');
  });

  it("apply: the plan printed before the question, and the lines of what failed, was skipped, was not stored", async () => {
    // Interactive: the plan goes to the terminal before the question (answered "no").
    const asked = await p.cli(["apply", "--tenant", "demo"], { answers: ["no"] });
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain("Apply these changes?");
    expect(asked.stderr).toContain("+new \\u001b[2K\\u001b[1A\\u0007 line");
    expect(rawControls(Buffer.from(asked.stderr))).toEqual([]);

    // A tenant whose refusal quotes the name (the failed line, and the skipped web id that needed the
    // brand), and that answers 200 to an update but keeps the old seo_title (the verification's lines):
    // an HttpError the emulator's request hook throws is the answer, and from the first update on
    // every request finds each brand's seo_title as it was.
    const store = p.emulator.store("demo");
    const titles = new Map([...store.brands.values()].map((b) => [b, b.seo_title]));
    let updated = false;
    p.emulator.onRequest(({ method, route }) => {
      if (updated) for (const [brand, title] of titles) brand.seo_title = title;
      if (method === "PUT" && route === "/brands/:id") updated = true;
      if (method === "POST" && route === "/brands") throw new HttpError(422, { message: `The name "${NEW_NAME}" is refused\u0007\u001b[2K.` });
    });
    try {
      const r = await pimctl(["apply", "--tenant", "demo", "--auto-approve"]);
      expect(r.code, r.stderr.toString()).toBe(4);
      expectClean(r);
      expect(r.text).toContain("+new \\u001b[2K\\u001b[1A\\u0007 line"); // the plan, printed before applying
      expect(r.text).toContain(`failed: brand["${SHOWN.newName}"]: The name "${SHOWN.newName}" is refused\\u0007\\u001b[2K.`);
      // What was skipped is counted per kind, never listed (the names are in the JSON report).
      expect(r.text).toMatch(/1 action skipped, because an action they depend on failed \(brands 1\)/);
      expect(r.text).toContain(`  brand["${SHOWN.evil}"]: seo_title\n`);
    } finally {
      p.emulator.onRequest(undefined);
    }
  });

  it("state show: ledger names and values", async () => {
    const r = await pimctl(["state", "show", "--tenant", "demo"]);
    expect(r.code, r.stderr.toString()).toBe(0);
    expectClean(r);
    expect(r.text).toContain(`brand["${SHOWN.evil}"]`);
    expect(r.text).toContain("Webshop=web\\u001b[1Aid\\u2066");
  });

  it("diff between two tenants: text and markdown", async () => {
    const text = await pimctl(["diff", "--from", "demo", "--to", "other"]);
    expect(text.code, text.stderr.toString()).toBe(0);
    expectClean(text);
    expect(text.text).toContain(`+ brand["${SHOWN.evil}"]`);
    expect(text.text).toContain(`brand["${SHOWN.other}"]`);
    const md = await pimctl(["diff", "--from", "demo", "--to", "other", "--format", "markdown"]);
    expectClean(md);
    expect(md.text).toContain(`brand["${SHOWN.ghost}"]`);
  });

  it("drift: a hostile record changed in the tenant, text and markdown", async () => {
    const api = createClient({ tenant: "demo", baseUrl: p.emulator.tenantUrl("demo"), token: p.tokens.demo! });
    try {
      const evil = (await api.listBrands()).find((b) => b.name === EVIL_NAME)!;
      await api.updateBrand(evil.id, { seo_title: "changed \u001b[2K by hand" });
    } finally {
      await api.close();
    }
    for (const format of ["text", "markdown"]) {
      const r = await pimctl(["drift", "--tenant", "demo", "--format", format]);
      expectClean(r);
      expect(r.text).toContain(`brand["${SHOWN.evil}"]`);
    }
  });
});
