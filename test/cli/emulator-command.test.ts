import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";

function startCli(args: string[]): Promise<{ line: string; out: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [path.join(repoRoot, "dist/cli/main.js"), "emulator", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) {
        resolve({
          line: out.split("\n")[0]!,
          out: () => out,
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
      // Then each tenant's base URL, ready for pimctl.yaml.
      await new Promise((r) => setTimeout(r, 50));
      expect(first.out()).toContain(`\n  demo: ${base}/demo/api/v1\n  prod: ${base}/prod/api/v1\n`);
      const call = (tenant: string, token: string, method = "GET", p = "/ping", body?: unknown) =>
        fetch(`${base}/${tenant}/api/v1${p}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      expect((await call("demo", "TOKEN_A")).status).toBe(200);
      expect((await call("prod", "TOKEN_A")).status).toBe(401);
      expect((await call("demo", "TOKEN_A", "POST", "/brands", { name: "Persisted" })).status).toBe(201);
      expect(await first.stop()).toBe(0);
      expect(existsSync(data)).toBe(true);
      const second = await startCli(["--port", "0", "--tenant", "demo=TOKEN_A", "--data", data]);
      const base2 = second.line.match(/(http:\/\/127\.0\.0\.1:\d+)/)![1]!;
      const found = await fetch(`${base2}/demo/api/v1/brands/search`, {
        method: "POST",
        headers: { authorization: "Bearer TOKEN_A", "content-type": "application/json" },
        body: JSON.stringify({ name: "Persisted" }),
      });
      expect(((await found.json()) as { brand: { name: string } }).brand.name).toBe("Persisted");
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes every reading switch on the command line, combined", { timeout: 30_000 }, async () => {
    const emu = await startCli([
      "--port",
      "0",
      "--tenant",
      "demo=T",
      "--bool-format",
      "string",
      "--id-format",
      "string",
      "--id-sequence",
      "global",
      "--set-attribute-delete-id",
      "attribute",
      "--search-empty",
      "404",
      "--max-page-size",
      "10",
      "--paginate-all-lists",
      "--date-format",
      "sql",
      "--category-attribute-sets-read",
      "csv",
      "--export-download",
      "redirect",
      "--fault-modes",
      "error500,drop_after_commit",
      "--export-step-ms",
      "1",
    ]);
    const base = emu.line.match(/(http:\/\/127\.0\.0\.1:\d+)/)![1]!;
    const call = async (method: string, p: string, body?: unknown) => {
      const r = await fetch(`${base}/demo/api/v1${p}`, {
        method,
        headers: { authorization: "Bearer T", "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
        redirect: "manual",
      });
      return { status: r.status, headers: r.headers, body: (await r.text()) || "" };
    };
    try {
      const set = JSON.parse((await call("POST", "/attribute_sets", { name: "S" })).body).attribute_set;
      expect(typeof set.id).toBe("string"); // --id-format string
      const cat = JSON.parse(
        (await call("POST", "/categories", { parent_id: 0, name: "C", attribute_sets: [Number(set.id)], is_visible: true })).body,
      ).category;
      expect(cat.is_visible).toBe("1"); // --bool-format string
      expect(cat.attribute_sets).toBe(set.id); // csv
      expect(cat.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/); // --date-format sql
      expect(Number(cat.id)).toBe(Number(set.id) + 1); // --id-sequence global
      expect((await call("POST", "/brands/search", { name: "Nope" })).status).toBe(404); // --search-empty 404
      expect((await call("GET", "/categories?limit=11")).status).toBe(422); // --max-page-size 10
      for (let i = 0; i < 30; i++) await call("POST", "/display-groups", { name: `G${i}` });
      const page = JSON.parse((await call("GET", "/display-groups")).body);
      expect(page.display_groups).toHaveLength(25); // --paginate-all-lists
      expect(page.meta.total).toBe(30);
      const exp = JSON.parse((await call("POST", "/exports", { profile_id: 1 })).body).export;
      const file = await fetch(exp.file_url, { headers: { authorization: "Bearer T" }, redirect: "manual" });
      expect(file.status).toBe(302); // --export-download redirect
      expect(new URL(file.headers.get("location")!).origin).not.toBe(base);
    } finally {
      expect(await emu.stop()).toBe(0);
    }
  });
});
