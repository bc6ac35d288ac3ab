import { hostname } from "node:os";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject();
  await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
});
afterAll(async () => p.close());

const lockFile = () => path.join(p.dir, ".pimctl", "demo.lock");
const holdLock = async () => {
  await mkdir(path.dirname(lockFile()), { recursive: true });
  const info = {
    id: "held-by-test",
    who: "bob",
    where: "https://ci.example.com/jobs/7",
    since: new Date().toISOString(),
    why: "apply plan.json",
    host: hostname(),
    pid: process.pid,
  };
  await writeFile(lockFile(), JSON.stringify(info));
};

describe("apply and the lock (local backend)", () => {
  it("a held lock stops apply before it reads anything from the tenant", async () => {
    await holdLock();
    const before = p.emulator.stats().requests.total;
    const r = await p.cli(["apply", "--auto-approve"]);
    expect(r.code).toBe(1);
    expect(p.emulator.stats().requests.total).toBe(before);
    expect(r.stderr).toContain("held by bob, at https://ci.example.com/jobs/7, since ");
    expect(r.stderr).toContain("for: apply plan.json");
    expect(r.stderr).toContain("if that run is gone, break the lock with: pimctl state unlock held-by-test");
  });

  it("plan takes no lock, reads the tenant, and says who holds it", async () => {
    const before = p.emulator.stats().requests.total;
    const r = await p.cli(["plan", "--no-color"]);
    expect(r.code).toBe(0);
    expect(p.emulator.stats().requests.total).toBeGreaterThan(before);
    expect(r.stdout).toContain('Warning: the state of tenant "demo" is locked: an apply is running or was killed (held by bob');
    expect(r.stdout).toContain("lock id held-by-test");
  });

  it("--lock-timeout waits for the lock to be released, then applies", async () => {
    const t0 = Date.now();
    setTimeout(() => void rm(lockFile(), { force: true }), 1500);
    const r = await p.cli(["apply", "--auto-approve", "--lock-timeout", "30s"]);
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
  });

  it("--lock-timeout gives up after its time, naming the holder and how long it waited", async () => {
    await holdLock();
    const r = await p.cli(["apply", "--auto-approve", "--lock-timeout", "1500ms"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is locked by another pimctl run \(waited [1-9]\d* s\)/);
    await rm(lockFile(), { force: true });
  });

  it("a dry run takes no lock", async () => {
    await holdLock();
    const r = await p.cli(["apply", "--dry-run"]);
    expect(r.code, r.stderr).toBe(0);
    await rm(lockFile(), { force: true });
  });
});
