import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/project.js";

function startCli(args: string[]): Promise<{ line: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [path.join(repoRoot, "dist/cli/main.js"), "emulator", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) {
        resolve({
          line: out.split("\n")[0]!,
          stop: () =>
            new Promise((r) => {
              child.once("exit", (code) => r(code));
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
}

describe("pimctl emulator (the built CLI, as a process)", () => {
  it("prints one line with its address, serves each tenant with its own token, persists with --data, stops on SIGTERM", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pimctl-emu-"));
    const data = path.join(dir, "state.json");
    try {
      const first = await startCli(["--port", "0", "--tenant", "demo=TOKEN_A", "--tenant", "prod=TOKEN_B", "--data", data]);
      const m = first.line.match(/^pimctl emulator listening on (http:\/\/127\.0\.0\.1:\d+) \(tenants: demo, prod\)$/);
      expect(m, first.line).not.toBeNull();
      const base = m![1]!;
      const call = (tenant: string, token: string, method = "GET", p = "/ping", body?: unknown) =>
        fetch(`${base}/${tenant}/api/v1${p}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect((await call("demo", "TOKEN_A")).status).toBe(200);
      expect((await call("prod", "TOKEN_A")).status).toBe(401);
      expect((await call("demo", "TOKEN_A", "POST", "/brands", { name: "Persisted" })).status).toBe(201);
      expect(await first.stop()).toBe(0);
      expect(existsSync(data)).toBe(true);
      const second = await startCli(["--port", "0", "--tenant", "demo=TOKEN_A", "--data", data]);
      const base2 = second.line.match(/(http:\/\/127\.0\.0\.1:\d+)/)![1]!;
      const found = await fetch(`${base2}/demo/api/v1/brands/search`, { method: "POST", headers: { authorization: "Bearer TOKEN_A", "content-type": "application/json" }, body: JSON.stringify({ name: "Persisted" }) });
      expect(((await found.json()) as { brand: { name: string } }).brand.name).toBe("Persisted");
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
