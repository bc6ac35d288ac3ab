/**
 * Corporate networks: requests go through the proxy named by HTTPS_PROXY /
 * HTTP_PROXY (a real forwarding proxy, started here), NO_PROXY bypasses it,
 * the token never reaches the proxy, and a tenant behind TLS with a private CA
 * is trusted through NODE_EXTRA_CA_CERTS.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createProxy } from "proxy";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

async function startProxy(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createProxy(createServer());
  const record = (req: IncomingMessage) => void seen.push({ method: req.method!, url: req.url!, headers: req.headers });
  server.prependListener("connect", record);
  server.prependListener("request", record);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

describe("through a forwarding proxy", () => {
  let project: TestProject;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  beforeAll(async () => {
    project = await testProject({ files: { "catalogue/c.yaml": "brands:\n  - name: Acme\n    desc: Tools since 1950\n" } });
    proxy = await startProxy();
  });
  afterAll(async () => {
    proxy.server.close();
    await project.close();
  });
  beforeEach(() => {
    proxy.seen.length = 0;
  });

  it("HTTP_PROXY: every request tunnels through the proxy, which never sees the token", async () => {
    const r = await project.cli(["apply", "--auto-approve", "--log-http"], { env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`go through the proxy ${proxy.url}`);
    const port = new URL(project.emulator.url).port;
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((s) => s.method === "CONNECT" && s.url === `127.0.0.1:${port}`)).toBe(true);
    expect(JSON.stringify(proxy.seen)).not.toContain(project.tokens.demo!);
    expect((await project.cli(["plan", "--detailed-exitcode"], { env: { https_proxy: proxy.url, http_proxy: proxy.url } })).code).toBe(0);
  });

  it("NO_PROXY bypasses it", async () => {
    const r = await project.cli(["plan"], { env: { HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" } });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.seen).toEqual([]);
  });

  it("a proxy that is down is a connection error naming the tenant, not a hang", async () => {
    const r = await project.cli(["plan"], { env: { HTTP_PROXY: "http://127.0.0.1:9" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/connect|ECONNREFUSED/i);
  });
});

describe("a tenant behind TLS with a private CA", () => {
  let dir: string;
  let emulator: Emulator;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  const token = "tls-secret";

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-tls-"));
    const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=pimctl test CA");
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "req.csr", "-subj", "/CN=127.0.0.1");
    await writeFile(path.join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n");
    ssl("x509", "-req", "-in", "req.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "cert.pem", "-days", "2", "-extfile", "ext.cnf");
    emulator = await startEmulator({
      port: 0,
      tenants: [{ hash: "tls", token }],
      latencyMs: 0,
      tls: { cert: await readFile(path.join(dir, "cert.pem"), "utf8"), key: await readFile(path.join(dir, "key.pem"), "utf8") },
    });
    proxy = await startProxy();
    await writeFile(
      path.join(dir, "pimctl.yaml"),
      `dir: catalogue\ntenants:\n  tls:\n    base_url: ${emulator.tenantUrl("tls")}\n    token_env: PIMCTL_TLS_TOKEN\n`,
    );
    execFileSync("mkdir", ["-p", path.join(dir, "catalogue")]);
    await writeFile(path.join(dir, "catalogue", "c.yaml"), "brands:\n  - name: Acme\n");
  });
  afterAll(async () => {
    proxy.server.close();
    await emulator.close();
  });

  /** A real process: NODE_EXTRA_CA_CERTS is read when Node starts. */
  const pimctl = (env: NodeJS.ProcessEnv, ...args: string[]) =>
    promisify(execFile)(process.execPath, [path.join(repoRoot, "dist", "cli", "main.js"), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH, PIMCTL_TLS_TOKEN: token, NO_COLOR: "1", ...env },
      encoding: "utf8",
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("the emulator serves HTTPS", () => {
    expect(emulator.tenantUrl("tls")).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/tls\/api\/v1$/);
  });

  it("without the CA the certificate is refused; with NODE_EXTRA_CA_CERTS the plan runs, through the proxy too", async () => {
    const refused = await pimctl({}, "plan");
    expect(refused.code).toBe(1);
    expect(refused.stderr, refused.stderr).toMatch(/certificate|self.signed|issuer/i);
    expect(refused.stderr).not.toContain(token);
    const trusted = await pimctl({ NODE_EXTRA_CA_CERTS: path.join(dir, "ca.pem") }, "plan");
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain('brand["Acme"]');
    const proxied = await pimctl({ NODE_EXTRA_CA_CERTS: path.join(dir, "ca.pem"), HTTPS_PROXY: proxy.url }, "plan");
    expect(proxied.code, proxied.stderr).toBe(0);
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((s) => s.method === "CONNECT")).toBe(true);
    expect(JSON.stringify(proxy.seen)).not.toContain(token);
  });
});
