import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitWorld, type GitWorld } from "./git-helpers.js";

let w: GitWorld;
beforeAll(async () => {
  w = await gitWorld();
});
afterAll(async () => w.close());

describe("git state backend, end to end with a bare repository and the emulator", () => {
  it("the runner really has no Git identity", () => {
    expect(() => w.git(w.root, "config", "user.email")).toThrow();
  });

  it("a first apply from one clone, then a plan from a fresh clone shows no changes", async () => {
    const a = await w.clone("a");
    const head = w.git(a, "rev-parse", "HEAD");
    const first = await w.cli(a, ["apply", "--auto-approve"]);
    expect(first.code, first.stderr).toBe(0);
    // The state is on its own ref; no lock is left; the branch, index and working tree are untouched.
    const refs = w.remoteRefs();
    expect(Object.keys(refs)).toEqual(["refs/pimctl/state/demo"]);
    expect(w.git(a, "status", "--porcelain")).toBe("");
    expect(w.git(a, "rev-parse", "HEAD")).toBe(head);
    expect(w.git(a, "ls-remote", "origin", "refs/heads/main").split("\t")[0]).toBe(head);
    expect(w.git(a, "branch", "--format=%(refname)").split("\n")).toEqual(["refs/heads/main"]);
    expect(existsSync(path.join(a, ".pimctl"))).toBe(false);
    // What the ref holds: one ledger.json, written by pimctl's own identity, no branch history.
    const sha = refs["refs/pimctl/state/demo"]!;
    expect(w.git(w.bare, "ls-tree", "--name-only", sha)).toBe("ledger.json");
    expect(w.git(w.bare, "log", "-1", "--format=%an <%ae>", sha)).toBe("pimctl <pimctl@localhost>");
    const ledger = JSON.parse(w.git(w.bare, "cat-file", "blob", `${sha}:ledger.json`));
    expect(Object.keys(ledger.web_ids).length).toBeGreaterThan(0);

    const fresh = await w.clone("fresh");
    const plan = await w.cli(fresh, ["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout + plan.stderr).not.toContain("unknown");
    expect(existsSync(path.join(fresh, ".pimctl"))).toBe(false);
    expect(w.git(fresh, "status", "--porcelain")).toBe("");
    // The same checkout with the local backend (no .pimctl/ on a fresh runner) would see changes forever.
    const localConfig = path.join(w.root, "local.yaml");
    await writeFile(
      localConfig,
      readFileSync(path.join(fresh, "pimctl.yaml"), "utf8")
        .replace("backend: git", "backend: local")
        .replace("dir: catalogue", `dir: ${path.join(fresh, "catalogue")}`),
    );
    const local = await w.cli(fresh, ["plan", "--detailed-exitcode", "--config", localConfig]);
    expect(local.code, local.stderr).toBe(2);
    expect(local.stdout).toContain("unknown");
  });
});
