import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";

let p: TestProject;
const brands = Array.from({ length: 12 }, (_, i) => `  - name: Brand ${String(i).padStart(2, "0")}\n    web_ids: { Webshop: brand-${i} }\n`).join("");

beforeAll(async () => {
  p = await testProject({ files: { "catalogue/brands.yaml": `brands:\n${brands}` } });
  const first = await p.cli(["apply", "--auto-approve"]);
  if (first.code !== 0) throw new Error(first.stderr);
  // A fresh runner with the local backend: the tenant has the values, this machine has no state.
  await rm(path.join(p.dir, ".pimctl"), { recursive: true, force: true });
});
afterAll(async () => p.close());

describe("unknown write-only values", () => {
  it("the plan says so once per field kind, not once per record", async () => {
    const r = await p.cli(["plan", "--no-color"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Warning: 12 web ids unknown: no state for this tenant yet");
    expect(r.stdout).toContain("~ 12 web ids unknown");
    expect(r.stdout).not.toContain('brand["Brand 03"].web_id');
    const md = await p.cli(["plan", "--format", "markdown"]);
    expect(md.stdout).toContain("~ 12 web ids unknown (write-only");
    expect(md.stdout.match(/web_id\[/g)).toBeNull();
    // JSON keeps every action: apply needs them.
    const json = JSON.parse((await p.cli(["plan", "--format", "json"])).stdout);
    expect(json.actions.filter((a: { changes: Array<{ before_unknown?: boolean }> }) => a.changes[0]?.before_unknown)).toHaveLength(12);
  });

  it("--write-only decides whether they count for --detailed-exitcode (default always)", async () => {
    const code = async (...extra: string[]) => (await p.cli(["plan", "--detailed-exitcode", ...extra])).code;
    expect(await code()).toBe(2);
    expect(await code("--write-only", "always")).toBe(2);
    expect(await code("--write-only", "when-unknown")).toBe(2); // no state at all: the first apply should run
    expect(await code("--write-only", "never")).toBe(0);
  });

  it("with state that lacks a few records: listed one by one, and when-unknown no longer counts them", async () => {
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    const key = /(brand:\d+)/.exec((await p.cli(["state", "show", "--offline"])).stdout)![1]!;
    expect((await p.cli(["state", "rm", key])).code).toBe(0);
    const r = await p.cli(["plan", "--no-color", "--detailed-exitcode"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("Warning: 1 web id unknown: no ledger entry for their records");
    expect(r.stdout).toMatch(/brand\["Brand \d\d"\]\.web_id\["Webshop"\]/);
    expect((await p.cli(["plan", "--detailed-exitcode", "--write-only", "when-unknown"])).code).toBe(0);
    expect((await p.cli(["plan", "--detailed-exitcode", "--write-only", "never"])).code).toBe(0);
  });

  it("a known difference always counts, whatever --write-only says", async () => {
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    await p.write("catalogue/brands.yaml", `brands:\n${brands.replace("brand-0 }", "brand-0-new }")}`);
    expect((await p.cli(["plan", "--detailed-exitcode", "--write-only", "never"])).code).toBe(2);
  });
});
