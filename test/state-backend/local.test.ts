import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LocalBackend, readLedger, saveLedger } from "../../src/state/backends/index.js";
import { pidScope } from "../../src/state/backends/types.js";
import { repoRoot } from "../helpers/paths.js";

let dir: string;
afterEach(async () => rm(dir, { recursive: true, force: true }));

const staleLock = {
  id: "stale-one",
  who: "gone",
  where: "old laptop",
  since: new Date(Date.now() - 7 * 3600_000).toISOString(),
  why: "apply",
  host: "elsewhere",
  pid: 1,
};

/** One process racing for the lock: waits until `at`, then tries; prints "won" or "lost". */
const racer = `
import { LocalBackend } from ${JSON.stringify(path.join(repoRoot, "dist/state/backends/local.js"))};
const [dir, at, me] = process.argv.slice(2);
while (Date.now() < Number(at)) {}
const r = await new LocalBackend(dir, "demo").lock({ id: me, who: me, where: "test", since: new Date().toISOString(), why: "race", host: "h", pid: process.pid }, { staleMs: 6 * 3600_000 });
process.stdout.write(r.acquired ? "won" : "lost");
`;

describe("local backend", () => {
  it("two (or eight) processes that all see the same stale lock: exactly one takes it over", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-local-"));
    const script = path.join(dir, "racer.mjs");
    await writeFile(script, racer);
    for (let round = 0; round < 5; round++) {
      await writeFile(path.join(dir, "demo.lock"), JSON.stringify(staleLock));
      const at = Date.now() + 700;
      const outs = await Promise.all(
        Array.from(
          { length: 8 },
          (_, i) =>
            new Promise<string>((resolve) => {
              const child = spawn(process.execPath, [script, dir, String(at), `racer-${i}`], { stdio: ["ignore", "pipe", "inherit"] });
              let out = "";
              child.stdout.on("data", (d: Buffer) => (out += d.toString()));
              child.on("close", () => resolve(out));
            }),
        ),
      );
      expect(
        outs.filter((o) => o === "won"),
        outs.join(","),
      ).toHaveLength(1);
      expect(outs.filter((o) => o === "lost")).toHaveLength(7);
      const holder = JSON.parse(await readFile(path.join(dir, "demo.lock"), "utf8"));
      expect(holder.id).toBe(`racer-${outs.indexOf("won")}`);
      await rm(path.join(dir, "demo.lock"));
    }
  });

  it("the takeover stays exclusive when a racer acts on an old reading of the lock (the window widened on purpose)", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-local-"));
    /** Acts on what it read up to 30 ms later: a slow process, the way the old takeover lost the race. */
    class SlowReader extends LocalBackend {
      override async readLock() {
        const seen = await super.readLock();
        await new Promise((r) => setTimeout(r, Math.random() * 30));
        return seen;
      }
    }
    for (let round = 0; round < 20; round++) {
      await writeFile(path.join(dir, "demo.lock"), JSON.stringify(staleLock));
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          new SlowReader(dir, "demo").lock({ ...staleLock, id: `r${i}`, since: new Date().toISOString() }, { staleMs: 6 * 3600_000 }),
        ),
      );
      expect(results.filter((r) => r.acquired)).toHaveLength(1);
      await rm(path.join(dir, "demo.lock"));
    }
  });

  it("a lock whose process died in this pid namespace of this host is stale; a live one is not; unlock removes only the given id", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-local-"));
    const b = new LocalBackend(dir, "demo");
    const { pid_ns, boot_id } = pidScope();
    expect(pid_ns).toMatch(/^pid:\[\d+\]$/);
    expect(boot_id).toMatch(/^[0-9a-f-]{36}$/);
    const mine = { id: "live", who: "me", where: "here", since: new Date().toISOString(), why: "apply", host: hostname(), pid: process.pid, pid_ns, boot_id };
    expect(await b.lock(mine, { staleMs: 3600_000 })).toEqual({ acquired: true });
    expect(await b.lock({ ...mine, id: "second" }, { staleMs: 3600_000 })).toMatchObject({ acquired: false, holder: { id: "live" } });
    expect(await b.unlock("second")).toBe(false);
    expect(await b.unlock("live")).toBe(true);
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => dead.once("exit", r));
    await writeFile(path.join(dir, "demo.lock"), JSON.stringify({ ...mine, id: "dead", pid: dead.pid }));
    expect(await b.lock({ ...mine, id: "next" }, { staleMs: 3600_000 })).toMatchObject({ acquired: true, tookOver: { id: "dead" } });
    await b.unlock("next");
    // The same hostname and a pid not alive here, but another pid namespace (another container),
    // another boot, or a lock that does not say (an older pimctl): the pid says nothing.
    for (const [other, elsewhere] of [
      ["ns", { pid_ns: "pid:[1]" }],
      ["boot", { boot_id: "00000000-0000-0000-0000-000000000000" }],
      ["unsaid", { pid_ns: undefined, boot_id: undefined }],
    ] as const) {
      await writeFile(path.join(dir, "demo.lock"), JSON.stringify({ ...mine, ...elsewhere, id: `other-${other}`, pid: dead.pid }));
      expect(await b.lock({ ...mine, id: "next" }, { staleMs: 3600_000 }), other).toMatchObject({ acquired: false, holder: { id: `other-${other}` } });
      await rm(path.join(dir, "demo.lock"));
    }
  });

  it("writes are compare-and-swap on the content, and a lost race merges instead of overwriting", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-local-"));
    await mkdir(dir, { recursive: true });
    const b = new LocalBackend(dir, "demo");
    const s1 = await readLedger(b, "demo", "http://t/api/v1");
    const s2 = await readLedger(b, "demo", "http://t/api/v1");
    s1.ledger.web_ids["brand:1"] = { W: "a" };
    s2.ledger.web_ids["category:2"] = { W: "b" };
    await saveLedger(b, s1);
    expect(await b.write("{}", s2.version)).toEqual({ ok: false });
    expect((await saveLedger(b, s2)).merged).toBe(1);
    const final = JSON.parse(await readFile(path.join(dir, "demo.json"), "utf8"));
    expect(final.web_ids).toEqual({ "brand:1": { W: "a" }, "category:2": { W: "b" } });
  });
});
