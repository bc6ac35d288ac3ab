/**
 * Two runners in two containers with one hostname: two PID namespaces
 * (`unshare -p -f --mount-proc`, real processes, one host). The holder's pid is
 * not alive in the other namespace, yet the holder is alive: the second run must
 * not take its lock over, on the local backend (the pid namespace and boot id in
 * the lock) nor on the Git backend (no verdict from pids at all: the lease).
 *
 * Needs permission to create namespaces (root, or unprivileged user namespaces):
 * where `unshare` is refused, each test reports itself skipped with the reason.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { gitWorld, type GitWorld } from "./git-helpers.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";

const probe = spawnSync("unshare", ["-p", "-f", "--mount-proc", "true"], { encoding: "utf8" });
const unshareRefused = probe.error
  ? `unshare cannot run here (${probe.error.message})`
  : probe.status !== 0
    ? `unshare -p -f --mount-proc is not permitted here: ${(probe.stderr || "").trim()}`
    : undefined;

/**
 * A new pid namespace in which pimctl's pid is above 100 (a hundred processes start and end
 * first): in the other namespace no process and no thread has it (kill(pid, 0) also answers
 * for thread ids, and node runs about ten threads).
 */
const holderNamespace = (node: string[]) => [
  "unshare",
  "-p",
  "-f",
  "--mount-proc",
  "sh",
  "-c",
  'i=0; while [ $i -lt 100 ]; do true & i=$((i+1)); done; wait; "$0" "$@"; exit $?',
  ...node,
];
/** Another new pid namespace, where pimctl is pid 1. */
const otherNamespace = (node: string[]) => ["unshare", "-p", "-f", "--mount-proc", ...node];

let w: GitWorld | undefined;
let p: TestProject | undefined;
afterEach(async () => {
  await w?.close();
  await p?.close();
  w = undefined;
  p = undefined;
});

const brands = (n: number) => `brands:\n${Array.from({ length: n }, (_, i) => `  - name: Brand ${i}\n    web_ids: { Webshop: brand-${i} }\n`).join("")}`;

describe("two PID namespaces, one hostname", () => {
  it("local backend: the second run does not take over the first one's live lock", async (ctx) => {
    if (unshareRefused) return ctx.skip(unshareRefused);
    p = await testProject({ emulator: { latencyMs: 500 }, files: { "catalogue/brands.yaml": brands(30) } });
    const env = { ...process.env, ...p.env, NO_COLOR: "1" };
    const lockFile = path.join(p.dir, ".pimctl", "demo.lock");
    const holder = spawnPimctl(p.dir, ["apply", "--auto-approve"], env, { wrap: holderNamespace });
    // Created exclusively, then written: wait for its content.
    const read = () => (existsSync(lockFile) ? readFileSync(lockFile, "utf8") : "");
    await until(() => read().endsWith("}"), 30_000, "the lock file");
    const held = JSON.parse(read()) as { pid: number; pid_ns: string; boot_id: string };
    const second = spawnPimctl(p.dir, ["apply", "--auto-approve"], env, { wrap: otherNamespace });
    const refused = await second.exit;
    expect(second.stderr()).not.toContain("took over");
    expect(refused.code, second.stderr()).toBe(1);
    expect(second.stderr()).toContain('the state of tenant "demo" is locked by another pimctl run');
    // Its pid is one of its own namespace; the namespace and boot are recorded beside it.
    expect(held.pid).toBeGreaterThan(100);
    expect(held.pid_ns).toMatch(/^pid:\[\d+\]$/);
    expect(held.boot_id).toBeTruthy();
    const done = await holder.exit;
    expect(done.code, holder.stderr()).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  });

  it("git backend: the second run does not take over the first one's live lock", async (ctx) => {
    if (unshareRefused) return ctx.skip(unshareRefused);
    w = await gitWorld({ latencyMs: 500, brands: 30 });
    const world = w;
    const [a, b] = [await w.clone("a"), await w.clone("b")];
    const holder = spawnPimctl(a, ["apply", "--auto-approve"], w.env, { wrap: holderNamespace });
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs(), 30_000, "the lock ref");
    const second = spawnPimctl(b, ["apply", "--auto-approve"], w.env, { wrap: otherNamespace });
    const refused = await second.exit;
    expect(second.stderr()).not.toContain("took over");
    expect(refused.code, second.stderr()).toBe(1);
    expect(second.stderr()).toContain('the state of tenant "demo" is locked by another pimctl run');
    const done = await holder.exit;
    expect(done.code, holder.stderr()).toBe(0);
    expect(Object.keys(w.remoteRefs())).toEqual(["refs/pimctl/state/demo"]);
  });
});
