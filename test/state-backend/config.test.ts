import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { PimctlErrors } from "../../src/errors.js";
import { GitBackend, LocalBackend, openBackend } from "../../src/state/backends/index.js";
import { parseDuration } from "../../src/base/durations.js";

let dir: string;
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function config(text: string) {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-cfg-"));
  await writeFile(path.join(dir, "pimctl.yaml"), text);
  return loadConfig({ cwd: dir });
}

const tenant = "tenants:\n  prod:\n    base_url: https://p.example.com/api/v1\n    token_env: T\n";

describe("state: in pimctl.yaml", () => {
  it("defaults to the local backend in ledger_dir; existing ledger_dir configs keep working", async () => {
    const c = await config(`ledger_dir: state-files\n${tenant}`);
    expect(c.state).toEqual({ backend: "local", remote: "origin" });
    const b = openBackend(c, "prod", {});
    expect(b).toBeInstanceOf(LocalBackend);
    expect(b.location).toBe(path.join(dir, "state-files", "prod.json"));
  });

  it("backend git: the remote of the repository holding pimctl.yaml, origin unless named", async () => {
    const c = await config(`state:\n  backend: git\n  remote: upstream\n${tenant}`);
    const b = openBackend(c, "prod", {}) as GitBackend;
    expect(b).toBeInstanceOf(GitBackend);
    expect([b.remote, b.repoDir, b.stateRef, b.lockRef]).toEqual(["upstream", dir, "refs/pimctl/state/prod", "refs/pimctl/lock/prod"]);
  });

  it("backend git outside a Git checkout, or with a remote that does not exist, says what to do", async () => {
    const c = await config(`state:\n  backend: git\n${tenant}`);
    const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: "1", GIT_CEILING_DIRECTORIES: path.dirname(dir) };
    await expect(openBackend(c, "prod", env).read()).rejects.toThrow(/is not inside a Git checkout/);
    const { execFileSync } = await import("node:child_process");
    execFileSync("git", ["init", "--quiet", dir], { env });
    await expect(openBackend(c, "prod", env).read()).rejects.toThrow(/state.remote "origin" is not a remote of the repository/);
  });

  it("a tenant name that cannot be a Git ref name is refused up front", async () => {
    const c = await config(`state:\n  backend: git\n${tenant}`);
    expect(() => openBackend(c, "prod.lock", {})).toThrow(/tenant "prod.lock" cannot name a Git ref/);
    expect(() => openBackend(c, "a..b", {})).toThrow(/cannot name a Git ref/);
  });

  it("an unknown backend is a config error at its line", async () => {
    const err = await config(`state:\n  backend: s3\n${tenant}`).catch((e) => e);
    expect(err).toBeInstanceOf(PimctlErrors);
    expect((err as PimctlErrors).errors[0]!.format()).toMatch(/pimctl\.yaml:2:\d+: .*(local|git)/);
  });

  it("--lock-timeout durations", () => {
    expect([parseDuration("5m"), parseDuration("30s"), parseDuration("1h"), parseDuration("250ms"), parseDuration("10")]).toEqual([
      300_000, 30_000, 3_600_000, 250, 10_000,
    ]);
    expect(parseDuration("soon")).toBeUndefined();
  });
});
