import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject({ files: { "catalogue/a.yaml": "brands:\n  - name: Acme\n    desc: Tools\n  - name: Zenith\n" }, emulator: { exportStepMs: 10 } });
});
afterAll(async () => p.close());

describe("pimctl apply (CLI)", () => {
  it("on a terminal shows the plan and asks; anything but yes cancels", async () => {
    const no = await p.cli(["apply"], { answers: ["no"] });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('+ brand["Acme"]');
    expect(no.stderr).toContain("Apply these changes? Only 'yes' is accepted:");
    expect(no.stderr).toContain("Apply cancelled; nothing was changed.");
    expect(p.emulator.store("demo").brands.size).toBe(0);
  });

  it("--dry-run prints the requests it would send and sends no write", async () => {
    p.emulator.resetStats();
    const r = await p.cli(["apply", "--dry-run"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('POST /brands {"name":"Acme","desc":"Tools"}');
    expect(p.emulator.stats().requests.byMethod.POST ?? 0).toBe(p.emulator.stats().requests.byRoute["POST /brands/search"] ?? 0);
    expect(p.emulator.store("demo").brands.size).toBe(0);
  });

  it("applies after yes, with a backup export first and a JSON report", async () => {
    const r = await p.cli(["apply", "--backup-profile", "1", "--report", "report.json"], { answers: ["yes"] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Backup export saved to .*demo-backup-\d+\.export/);
    const backups = readdirSync(path.join(p.dir, ".pimctl")).filter((f) => f.endsWith(".export"));
    expect(backups).toHaveLength(1);
    const report = JSON.parse(readFileSync(path.join(p.dir, "report.json"), "utf8"));
    expect(report.counts).toEqual({ done: 2, failed: 0, skipped: 0, unsupported: 0 });
    expect(report.verification).toEqual({ checked: 2, mismatches: [] });
    expect(p.emulator.store("demo").brands.size).toBe(2);
  });

  it("a failed action gives the partial exit code 4 and names the API's reason", async () => {
    await p.write("catalogue/a.yaml", "brands:\n  - name: Acme\n    desc: Changed\n  - name: Zenith\n  - name: New\n");
    p.emulator.injectFaults([{ method: "POST", route: "/brands", mode: "error500", times: 100 }]);
    const r = await p.cli(["apply", "--auto-approve"]);
    p.emulator.clearFaults();
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/failed: brand\["New"\]: /);
    expect(r.stderr).toMatch(/Apply: 1 done, 1 failed, 0 skipped/);
    const again = await p.cli(["apply", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    expect([...p.emulator.store("demo").brands.values()].filter((b) => b.name === "New")).toHaveLength(1);
  });

  it("a second apply while the ledger is locked is refused, naming the holder", async () => {
    const lock = path.join(p.dir, ".pimctl", "demo.lock");
    const { writeFileSync, rmSync } = await import("node:fs");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: (await import("node:os")).hostname(), since: new Date().toISOString(), command: "apply" }));
    await p.write("catalogue/a.yaml", "brands:\n  - name: Acme\n    desc: Locked out\n");
    const r = await p.cli(["apply", "--auto-approve"]);
    rmSync(lock);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the state of tenant "demo" is locked by another pimctl run\n  held by pid \d+ on .*, at .*, since .*, for: apply/);
    expect(r.stderr).toContain(`pimctl state unlock legacy-${process.pid}`);
    expect(existsSync(lock)).toBe(false);
  });
});
