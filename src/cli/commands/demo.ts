import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CommandModule } from "yargs";
import { apply, loadProject, plan } from "../../workflows/index.js";
import { renderPlan, summaryLine } from "../../render/index.js";
import { createProgress } from "../../render/progress.js";
import { connect } from "../../tenant.js";
import { packagePath } from "../../package.js";
import { hasChanges } from "../../plan/types.js";
import type { Io } from "../io.js";
import { colorFor, type GlobalArgs } from "../options.js";
import { publicPlan } from "../../planfile/file.js";
import { palette } from "../../render/common.js";
import { PimctlError } from "../../errors.js";

interface DemoArgs extends GlobalArgs {
  examples?: string;
  "latency-ms"?: number;
}

/** examples/catalogue shipped beside dist/ (works from a clone and from an installed package). */
export function examplesDir(): string {
  return packagePath("examples", "catalogue");
}

export function demoCommand(io: Io): CommandModule<object, DemoArgs> {
  return {
    command: "demo",
    describe: "Run the whole cycle against an embedded local tenant: validate, plan, apply, drift, converge",
    builder: (y) =>
      y
        .option("examples", { type: "string", describe: "Manifest directory to use (default: the shipped examples/catalogue)" })
        .option("latency-ms", { type: "number", default: 0, describe: "Emulated network latency per request" })
        .option("color", { type: "boolean", describe: "Colour output (--no-color turns it off)" })
        .example("$0 demo", "No setup, no credentials, no network") as never,
    handler: async (args) => {
      await runDemo(io, args);
    },
  };
}

export async function runDemo(io: Io, args: DemoArgs): Promise<{ finalPlanHasChanges: boolean }> {
  const color = colorFor(args, io);
  const c = palette(color);
  const step = (n: number, title: string, why: string) => io.stdout(`\n${c.bold.cyan(`Step ${n}: ${title}`)}\n${c.dim(why)}\n\n`);
  const token = randomBytes(16).toString("hex");
  // Loaded when used: the emulator is not part of any other command's start-up.
  const { startEmulator } = await import("../../emulator/index.js");
  const emulator = await startEmulator({ port: 0, tenants: [{ hash: "demo", token }], latencyMs: args["latency-ms"] ?? 0 });
  const work = await mkdtemp(path.join(tmpdir(), "pimctl-demo-"));
  try {
    const dir = path.resolve(io.cwd, args.examples ?? examplesDir());
    const configFile = path.join(work, "pimctl.yaml");
    await writeFile(
      configFile,
      [
        `dir: ${JSON.stringify(dir)}`,
        "tenants:",
        "  demo:",
        `    base_url: ${emulator.tenantUrl("demo")}`,
        "    token_env: PIMCTL_DEMO_TOKEN",
        "ledger_dir: .pimctl",
        "",
      ].join("\n"),
    );
    const env = { ...io.env, PIMCTL_DEMO_TOKEN: token };
    const opts = { cwd: work, env, configPath: configFile, tenant: "demo", ...(io.interrupt ? { signal: io.interrupt } : {}) };
    io.stdout(`${c.bold("pimctl demo")}: a local PIM tenant is running at ${emulator.tenantUrl("demo")} (an emulator of API v1, in this process).\n`);

    step(1, "validate the manifests", `pimctl validate --dir ${path.relative(io.cwd, dir) || "."}   (offline: schema, duplicates, references)`);
    const { desired, files } = await loadProject(opts);
    io.stdout(
      `${files.length} file(s) OK: ${desired.display_groups.length} display groups, ${desired.attributes.length} attributes ` +
        `(${desired.attributes.reduce((n, a) => n + (a.values?.length ?? 0), 0)} values), ${desired.attribute_sets.length} attribute sets, ` +
        `${desired.blocks.length} blocks, ${desired.brands.length} brands, ${desired.categories.length} categories; versions: ` +
        `${desired.versions.join(", ") || "master only"}\n`,
    );

    step(
      2,
      "plan against the empty tenant",
      "pimctl plan --tenant demo --summary   (reads the tenant, prints what apply would do: counts per kind here; without --summary, every field)",
    );
    const first = await plan(opts);
    io.stdout(renderPlan(publicPlan(first.plan), "text", { color, summary: true }));

    step(3, "apply it", "pimctl apply --tenant demo --auto-approve   (dependency order, 8 requests at a time, progress on stderr)");
    const progress = createProgress({ write: io.stderr, live: io.stderrIsTTY, color, quiet: false });
    const applied = await apply({ ...opts, hooks: progress.hooks });
    progress.finish();
    const counts = applied.report!.counts;
    io.stdout(`Applied: ${counts.done} done, ${counts.failed} failed, ${counts.skipped} skipped. Requests so far: ${emulator.stats().requests.total}.\n`);
    if (applied.verification?.mismatches.length) io.stdout(`Verification found ${applied.verification.mismatches.length} record(s) not stored as written.\n`);

    step(4, "someone changes the tenant by hand", "A colleague edits a brand and an attribute through the API, outside Git.");
    const conn = await connect(first.config, "demo", { env });
    try {
      const brand = desired.brands[0];
      if (!brand) throw new PimctlError("internal", "the demo needs at least one brand in the examples");
      const found = await conn.api.searchBrand(brand.name);
      if (found) await conn.api.updateBrand(found.id, { desc: "Edited by hand in the PIM UI" });
      const attr = desired.attributes.find((a) => a.publish !== undefined);
      const foundAttr = attr ? await conn.api.searchAttribute(attr.name) : null;
      if (foundAttr && attr) await conn.api.updateAttribute(foundAttr.id, { publish: !attr.publish });
      io.stdout(`Changed brand "${brand.name}" (desc)${attr ? ` and attribute "${attr.name}" (publish)` : ""}.\n`);
    } finally {
      await conn.api.close();
    }

    step(5, "plan shows the drift", "pimctl plan --tenant demo   (exactly the hand-made changes, field by field)");
    const drift = await plan(opts);
    io.stdout(renderPlan(publicPlan(drift.plan), "text", { color }));

    step(6, "apply converges", "pimctl apply --tenant demo --auto-approve");
    const again = await apply({ ...opts });
    io.stdout(`Applied: ${again.report?.counts.done ?? 0} done.\n`);

    step(7, "plan again: nothing to do", "pimctl plan --tenant demo --detailed-exitcode   (exit 0: no changes)");
    const last = await plan(opts);
    io.stdout(`${summaryLine(last.plan)}\n`);

    io.stdout(
      `\n${c.bold("Do the same against your tenant:")}\n` +
        "  1. pimctl init                       # writes pimctl.yaml and a manifest directory\n" +
        "  2. export PIMCTL_DEV_TOKEN=...       # the token stays in the environment, never in files\n" +
        "  3. pimctl ping --tenant dev          # checks address and token\n" +
        "  4. pimctl export --tenant dev --out catalogue/ --merge   # add what the tenant holds to the files init wrote\n" +
        "  5. pimctl plan --tenant dev          # then edit the YAML, plan, review, apply\n" +
        `Total requests served by the local tenant: ${emulator.stats().requests.total}.\n`,
    );
    return { finalPlanHasChanges: hasChanges(last.plan) };
  } finally {
    await emulator.close();
    await rm(work, { recursive: true, force: true });
  }
}
