/**
 * A throwaway project for end-to-end tests: an emulator on 127.0.0.1:0, a temp
 * directory with pimctl.yaml pointing at it, manifests written inline, and the
 * CLI run in-process with captured output.
 */
import { readFileSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator/index.js";
import { run } from "../../src/cli/run.js";
import { memoryIo } from "../../src/cli/io.js";
import { repoRoot } from "./paths.js";

export interface TestProject {
  dir: string;
  emulator: Emulator;
  env: NodeJS.ProcessEnv;
  tokens: Record<string, string>;
  /** Run `pimctl ...args` in the project; returns exit code and output. */
  cli(args: string[], opts?: { answers?: string[]; env?: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string; stderr: string }>;
  write(file: string, text: string): Promise<void>;
  copyExamples(from: string, to?: string): Promise<void>;
  close(): Promise<void>;
}

export async function testProject(
  opts: {
    tenants?: string[];
    files?: Record<string, string>;
    config?: (urls: Record<string, string>) => string;
    /** With the default config: lines under each tenant (`    variables: { region: eu }`), and lines at the top (`rollout: ...`). */
    tenantLines?: (name: string) => string[];
    configLines?: string[];
    emulator?: Partial<EmulatorOptions>;
  } = {},
): Promise<TestProject> {
  const names = opts.tenants ?? ["demo"];
  const tokens = Object.fromEntries(names.map((n) => [n, `tok-${n}-${Math.random().toString(36).slice(2)}`]));
  const emulator = await startEmulator({ port: 0, tenants: names.map((n) => ({ hash: n, token: tokens[n]! })), ...opts.emulator });
  const dir = await mkdtemp(path.join(tmpdir(), "pimctl-test-"));
  const urls = Object.fromEntries(names.map((n) => [n, emulator.tenantUrl(n)]));
  const env: NodeJS.ProcessEnv = Object.fromEntries(names.map((n) => [`PIMCTL_${n.toUpperCase()}_TOKEN`, tokens[n]!]));
  const config =
    opts.config?.(urls) ??
    [
      "dir: catalogue",
      ...(opts.configLines ?? []),
      "tenants:",
      ...names.flatMap((n) => [`  ${n}:`, `    base_url: ${urls[n]}`, `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`, ...(opts.tenantLines?.(n) ?? [])]),
      "",
    ].join("\n");
  await writeFile(path.join(dir, "pimctl.yaml"), config);
  await mkdir(path.join(dir, "catalogue"), { recursive: true });
  const project: TestProject = {
    dir,
    emulator,
    env,
    tokens,
    async cli(args, o = {}) {
      const io = memoryIo({ cwd: dir, env: { ...env, ...o.env }, ...(o.answers ? { answers: o.answers } : {}) });
      const code = await run(args, io);
      return { code, stdout: io.out.join(""), stderr: io.err.join("") };
    },
    async write(file, text) {
      const p = path.join(dir, file);
      await mkdir(path.dirname(p), { recursive: true });
      await writeFile(p, text);
    },
    async copyExamples(from, to = "catalogue") {
      await rm(path.join(dir, to), { recursive: true, force: true });
      await cp(from, path.join(dir, to), { recursive: true });
    },
    async close() {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  for (const [f, t] of Object.entries(opts.files ?? {})) await project.write(f, t);
  return project;
}

/**
 * examples/promotion as a project: tenants staging and prod, prod's channels named and numbered
 * as a second shop would (its web shop channel "Webshop EU", French as version 7), the example's
 * config pointed at the emulator and its manifests copied in.
 */
export async function promotionProject(): Promise<TestProject> {
  const p = await testProject({
    tenants: ["staging", "prod"],
    emulator: {
      seed: {
        tenants: {
          prod: {
            channels: [
              { id: 1, channel_name: "Webshop EU", sync: true, price_base: "EUR", inventory_location: "EU", version_id: 0, version_name: "Master" },
              { id: 2, channel_name: "Boutique FR", sync: true, price_base: "EUR", inventory_location: "FR", version_id: 7, version_name: "French" },
              { id: 3, channel_name: "Shop DE", sync: true, price_base: "EUR", inventory_location: "DE", version_id: 3, version_name: "German" },
            ],
          },
        },
      },
    },
    config: (urls) =>
      readFileSync(path.join(repoRoot, "examples/promotion/pimctl.yaml"), "utf8")
        .replace("http://127.0.0.1:4010/staging/api/v1", urls.staging!)
        .replace("http://127.0.0.1:4010/prod/api/v1", urls.prod!),
  });
  await p.copyExamples(path.join(repoRoot, "examples/promotion/catalogue"));
  return p;
}

/**
 * pimctl.yaml for the one tenant "demo" of a test project: `tenantLines` go under the tenant
 * (`variables:` ...), `lines` at the top (`versions: { French: 2 }`, `prune: ...`).
 */
export const demoConfig =
  (lines: readonly string[] = [], tenantLines: readonly string[] = []) =>
  (urls: Record<string, string>): string =>
    ["dir: catalogue", "tenants:", "  demo:", `    base_url: ${urls.demo}`, "    token_env: PIMCTL_DEMO_TOKEN", ...tenantLines, ...lines, ""].join("\n");

/** A validator of one of the published JSON Schemas (schemas/NAME.schema.json), with the ones it refers to by $ref (`refs`: their names). */
export function schemaValidator(name: string, refs: readonly string[] = []): ValidateFunction {
  const load = (n: string) => JSON.parse(readFileSync(path.join(repoRoot, "schemas", `${n}.schema.json`), "utf8")) as object;
  const ajv = new Ajv({ allErrors: true, strict: false });
  for (const ref of refs) ajv.addSchema(load(ref));
  return ajv.compile(load(name));
}
