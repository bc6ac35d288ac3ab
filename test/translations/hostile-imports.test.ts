/**
 * What a translator's file or a team's setup can do to import, status and
 * export (each case found by a hostile review): an edit that would break the
 * file, bytes that are not UTF-8, `${` in a translation, variables in master
 * texts with several tenants, a required rule over several versions, a gate
 * that is not a number, a master text ending in a line break, a DTD, control
 * characters, stale units.
 */
import { readFile, mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HAS_MSGFMT, MSGFMT_REQUIRED, MSGFMT_SKIP, msgfmtCheck } from "./msgfmt.js";
import { cliIn } from "../helpers/offline.js";

let dir: string;
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function project(manifest: string, config = "dir: catalogue\n"): Promise<void> {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-hostile-"));
  await mkdir(path.join(dir, "catalogue"));
  await writeFile(path.join(dir, "pimctl.yaml"), config);
  await writeFile(path.join(dir, "catalogue", "c.yaml"), manifest);
}
const cli = (...args: string[]) => cliIn(dir, args);
const manifest = () => readFile(path.join(dir, "catalogue", "c.yaml"), "utf8");
/** Rows of [id, source, target], as a translator's CSV (state "new", no notes). */
const csv = (rows: Array<[string, string, string]>) =>
  `id,state,source,target,notes\n${rows.map(([id, source, target]) => [id, "new", source, target, ""].map((c) => `"${c.replace(/"/g, '""')}"`).join(",")).join("\n")}\n`;
const nameUnit = (attribute: string, version: string) => `attribute["${attribute}"].version["${version}"].field["name"]`;

describe("translations import, status and export against hostile input", () => {
  it("a version added after a comment that closes the last version: above the comment, and the file still loads", async () => {
    await project(
      "attributes:\n  - name: Material\n    type: text\n    versions:\n      French:\n        name: Matière\n        # a comment inside\n  - name: Finish\n    type: text\n",
    );
    await writeFile(path.join(dir, "s.csv"), csv([[nameUnit("Material", "Spanish"), "Material", "Materia"]]));
    expect((await cli("translations", "import", "s.csv")).code).toBe(0);
    expect(await manifest()).toBe(
      "attributes:\n  - name: Material\n    type: text\n    versions:\n      French:\n        name: Matière\n      Spanish:\n        name: Materia\n        # a comment inside\n  - name: Finish\n    type: text\n",
    );
    expect((await cli("validate")).code).toBe(0);
  });

  it("a file that is not UTF-8, or declares another charset, is refused with its place; nothing is written", async () => {
    const before = "attributes:\n  - name: Finish\n    type: text\n";
    await project(before);
    await writeFile(
      path.join(dir, "s.csv"),
      Buffer.concat([
        Buffer.from(`id,state,source,target,notes\n"${nameUnit("Finish", "Spanish").replace(/"/g, '""')}",new,Finish,Acabad`),
        Buffer.from([0xe1]),
        Buffer.from(",\n"),
      ]),
    );
    const latin1 = await cli("translations", "import", "s.csv");
    expect(latin1.code).toBe(1);
    expect(latin1.stderr).toMatch(/s\.csv:2:\d+: this file is not UTF-8/);
    const po = `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgctxt "${nameUnit("Finish", "Spanish").replace(/"/g, '\\"')}"\nmsgid "Finish"\nmsgstr "Acabado"\n`;
    await writeFile(path.join(dir, "s.po"), po);
    const declared = await cli("translations", "import", "s.po");
    expect(declared.code).toBe(1);
    expect(declared.stderr).toContain("declares the charset ISO-8859-1; pimctl reads UTF-8 only");
    expect(await manifest()).toBe(before);
  });

  it("`${` in a translation is written so it reads back as written; a reference to a tenant's variable stays one", async () => {
    await project(
      "attributes:\n  - name: Finish\n    type: text\n    note: Sold at ${shop}\n",
      "dir: catalogue\ntenants:\n  a:\n    base_url: http://127.0.0.1:9/api/v1\n    token_env: A_TOKEN\n    variables: { shop: Alpha }\n  b:\n    base_url: http://127.0.0.1:9/api/v1\n    token_env: B_TOKEN\n    variables: { shop: Beta }\n",
    );
    // The master text is the template for every tenant: the same source, and the same status, whichever tenant.
    const exported = await cli("translations", "export", "--language", "French", "--format", "csv", "--tenant", "a");
    expect(exported.stdout).toContain("Sold at ${shop}");
    await writeFile(
      path.join(dir, "f.csv"),
      csv([
        [nameUnit("Finish", "French"), "Finish", "Fini ${x} $"],
        [`attribute["Finish"].version["French"].field["note"]`, "Sold at ${shop}", "Vendu chez ${shop}"],
      ]),
    );
    expect((await cli("translations", "import", "f.csv")).code).toBe(0);
    const text = await manifest();
    expect(text).toContain("Fini $${x} $");
    expect(text).toContain("Vendu chez ${shop}");
    const a = await cli("translations", "status", "--format", "json", "--tenant", "a");
    const b = await cli("translations", "status", "--format", "json", "--tenant", "b");
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout)).toMatchObject({ versions: [{ version: "French", outdated: 0, missing: 0 }] });
    expect((await cli("validate", "--tenant", "a")).code).toBe(0);
  });

  it("validate exits 3 (policy) when several required versions are behind, as for one", async () => {
    await project("attributes:\n  - name: Finish\n    type: text\n", "dir: catalogue\ntranslations: { required: [French, German], fail_under: 90 }\n");
    const r = await cli("validate");
    expect(r.stderr).toMatch(/French: 0% .*\n[\s\S]*German: 0% /);
    expect(r.code).toBe(3);
  });

  it("--fail-under that is not a percentage is a usage error, never a gate that is off", async () => {
    await project("attributes:\n  - name: Finish\n    type: text\n");
    for (const bad of ["abc", "100%", "", "101"]) {
      const r = await cli("translations", "status", "--fail-under", bad);
      expect(r.code, bad).toBe(1);
      expect(r.stderr).toContain("--fail-under takes a number from 0 to 100");
    }
  });

  it.skipIf(!HAS_MSGFMT && !MSGFMT_REQUIRED)(
    `a master text ending in a line break: the PO file still passes msgfmt --check, and import keeps the master's line end${HAS_MSGFMT || MSGFMT_REQUIRED ? "" : ` [skipped: ${MSGFMT_SKIP}]`}`,
    async () => {
      expect(HAS_MSGFMT, MSGFMT_SKIP).toBe(true);
      await project(
        "attributes:\n  - name: Finish\n    type: text\n    note: |\n      Two lines\n      of text\n    versions:\n      French: { name: Fini, note: Deux lignes sans fin de ligne }\n",
      );
      const po = await cli("translations", "export", "--language", "French", "--format", "po");
      expect(() => msgfmtCheck(po.stdout)).not.toThrow();
      await writeFile(path.join(dir, "f.csv"), csv([[`attribute["Finish"].version["French"].field["note"]`, "Two lines\nof text\n", "Deux lignes\nde texte"]]));
      expect((await cli("translations", "import", "f.csv")).code).toBe(0);
      const again = await cli("translations", "export", "--language", "French", "--format", "csv");
      expect(again.stdout).toContain('"Deux lignes\nde texte\n"');
    },
  );

  it("XLIFF with a DTD (entities, external entities) is refused before parsing; control characters in a target are refused by unit", async () => {
    await project("attributes:\n  - name: Finish\n    type: text\n");
    const id = nameUnit("Finish", "French");
    await writeFile(
      path.join(dir, "x.xlf"),
      `<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<xliff version="1.2"><file source-language="en" target-language="fr" datatype="plaintext" original="x"><body><trans-unit id="${id.replace(/"/g, "&quot;")}"><source>Finish</source><target>&e;</target></trans-unit></body></file></xliff>\n`,
    );
    const dtd = await cli("translations", "import", "x.xlf");
    expect(dtd.code).toBe(1);
    expect(dtd.stderr).toContain("has a document type declaration");
    expect(dtd.stderr).not.toContain("internal error");
    await writeFile(path.join(dir, "c.csv"), csv([[id, "Finish", "Fi\u000bni\u0001"]]));
    const control = await cli("translations", "import", "c.csv");
    expect(control.code).toBe(1);
    expect(control.stderr).toContain(`unit ${id}: its target holds the control character U+000B`);
  });

  it("stale units are not written, and the run says so with exit 4", async () => {
    await project("attributes:\n  - name: Finish\n    type: text\n  - name: Size\n    type: text\n");
    await writeFile(
      path.join(dir, "s.csv"),
      csv([
        [nameUnit("Finish", "French"), "Finish", "Fini"],
        [nameUnit("Size", "French"), "Old size", "Taille"],
      ]),
    );
    const r = await cli("translations", "import", "s.csv");
    expect(r.code).toBe(4);
    expect(r.stderr + r.stdout).toContain(`stale, not written: ${nameUnit("Size", "French")}`);
    expect(await manifest()).toContain("Fini");
    expect(await manifest()).not.toContain("Taille");
  });
});
