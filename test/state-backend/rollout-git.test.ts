/**
 * A rollout with the state on a Git remote: each tenant under its own lock ref and with its own
 * state ref, the tenants of a wave pushing to the same remote from the same checkout at once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { gitWorld, type GitWorld } from "./git-helpers.js";

let w: GitWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("a rollout on the git backend", () => {
  it("applies two tenants at once, each under its own lock ref, each leaving its own state ref and no lock", async () => {
    w = await gitWorld({
      brands: 5,
      // Each tenant's apply spans seconds: the two overlap, whatever the machine's load does to the lock pushes.
      latencyMs: 150,
      config: (url) =>
        [
          "dir: catalogue",
          "state:",
          "  backend: git",
          "tenants:",
          "  demo:",
          `    base_url: ${url}`,
          "    token_env: PIMCTL_DEMO_TOKEN",
          "  second:",
          `    base_url: ${url.replace("/demo/", "/second/")}`,
          "    token_env: PIMCTL_DEMO_TOKEN",
          "",
        ].join("\n"),
    });
    w.emulator.addTenant({ hash: "second", token: w.env.PIMCTL_DEMO_TOKEN! });
    const world = w;
    const locks: string[] = [];
    // The lock refs seen on the remote while the tenants write: both tenants' at once.
    world.emulator.onRequest(({ method }) => {
      if (method === "POST")
        locks.push(
          Object.keys(world.remoteRefs())
            .filter((r) => r.startsWith("refs/pimctl/lock/"))
            .sort()
            .join(","),
        );
    });
    const a = await w.clone("a");
    const r = await w.cli(a, ["apply", "--tenant", "*", "--auto-approve"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Rollout: 2 applied (2 tenants, 1 wave).");
    const refs = Object.keys(w.remoteRefs()).sort();
    expect(refs).toEqual(["refs/pimctl/state/demo", "refs/pimctl/state/second"]);
    expect(locks).toContain("refs/pimctl/lock/demo,refs/pimctl/lock/second");
    for (const t of ["demo", "second"]) expect([...w.emulator.store(t).brands.values()]).toHaveLength(5);

    const again = await w.cli(a, ["apply", "--tenant", "*", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("Rollout: 2 already applied (2 tenants, 1 wave).");
  });
});
