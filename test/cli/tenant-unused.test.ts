/**
 * --tenant is every command's option; where a command did not use it, a misspelt or meaningless one
 * passed without a word (a hostile review): `diff` names its two sides itself (refused), and the
 * translations commands without overlays check the name as every other command does.
 */
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryIo } from "../../src/cli/io.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-tenant-unused-"));
  await mkdir(path.join(dir, "catalogue"));
  await writeFile(
    path.join(dir, "pimctl.yaml"),
    "dir: catalogue\ntenants:\n  prod-eu: { base_url: https://eu.example/api/v1, token_env: T }\n  prod-us: { base_url: https://us.example/api/v1, token_env: T }\n",
  );
  await writeFile(
    path.join(dir, "catalogue/attributes.yaml"),
    "display_groups:\n  - name: Basics\nattributes:\n  - name: Colour\n    type: text\n    display_group: Basics\n    versions: { French: { name: Couleur } }\n",
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  const io = memoryIo({ cwd: dir, env: {} });
  const code = await run(argv, io);
  return { code, stderr: io.err.join(""), stdout: io.out.join("") };
}

describe("--tenant where a command did not use it", () => {
  it("diff refuses it, before anything is read", async () => {
    const r = await cli(["diff", "--from", "catalogue", "--to", "prod-us", "--tenant", "prod-eu"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: diff compares --from and --to (tenants or a directory), so --tenant prod-eu is not used: drop it");
  });

  it("translations export checks the name without overlays: a typo is an error naming the tenants; the right name works", async () => {
    const typo = await cli(["translations", "export", "--language", "French", "--tenant", "prod-uss"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('"prod-uss"');
    expect(typo.stderr).toMatch(/prod-us\b/);
    const right = await cli(["translations", "export", "--language", "French", "--tenant", "prod-us"]);
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toContain("Colour");
  });
});
