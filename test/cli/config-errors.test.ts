/** No config: say so and how to create one. Credentials in base_url: refused, never printed. */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn } from "../helpers/offline.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-config-errors-"));
  // An unrelated tree that must never be scanned.
  await mkdir(path.join(dir, "node_stuff/deep"), { recursive: true });
  await writeFile(path.join(dir, "node_stuff/deep/other.yaml"), "not: [a, manifest\n");
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const cli = (args: string[], cwd = dir) => cliIn(cwd, args, { PIMCTL_T: "x" });

describe("config errors", () => {
  it("no pimctl.yaml: one error naming 'pimctl init', no scan of the working directory", async () => {
    for (const cmd of [["validate"], ["plan"]]) {
      const r = await cli(cmd);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`error: no pimctl.yaml found in ${dir}`);
      expect(r.stderr).toContain("create one with 'pimctl init'");
      expect(r.stderr).not.toContain("other.yaml");
      expect(r.stderr.match(/^error: /gm)).toHaveLength(1);
    }
  });

  it("a base_url with credentials is refused, and the password is not printed", async () => {
    const sub = path.join(dir, "creds");
    await mkdir(path.join(sub, "catalogue"), { recursive: true });
    await writeFile(
      path.join(sub, "pimctl.yaml"),
      "dir: catalogue\ntenants:\n  prod:\n    base_url: https://admin:hunter2@pim.example.com/api/v1\n    token_env: PIMCTL_T\n",
    );
    const r = await cli(["plan"], sub);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tenant "prod": base_url must not hold credentials (https://***@pim.example.com/api/v1)');
    expect(r.stderr + r.stdout).not.toContain("hunter2");
    expect(r.stderr + r.stdout).not.toContain("admin:");
    const init = await cli(["init", "--base-url", "https://admin:hunter2@pim.example.com/api/v1", "--config", "other.yaml"], sub);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain("the base URL must not hold credentials (https://***@pim.example.com/api/v1)");
    expect(init.stderr).not.toContain("hunter2");
  });
});

describe("plural forms", () => {
  it("one of a thing is singular", async () => {
    const { plural } = await import("../../src/plural.js");
    expect([plural(1, "category"), plural(2, "category"), plural(1, "brand"), plural(3, "brand"), plural(1, "attribute value"), plural(2, "change")]).toEqual([
      "1 category",
      "2 categories",
      "1 brand",
      "3 brands",
      "1 attribute value",
      "2 changes",
    ]);
  });
});
