/**
 * Issue 33: a tenant that caps changelog answers (no paging) and takes a `limit` under 250.
 * A hand edit made after the snapshot must be seen by `plan --refresh=changelog` and by
 * `drift --refresh=changelog`, as by the full read.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { plan } from "../../src/workflows/index.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";

const projects: TestProject[] = [];
afterAll(async () => {
  await Promise.all(projects.map((p) => p.close()));
});

describe("a capped feed that takes a limit under 250", () => {
  for (const maxPageSize of [100, 200])
    it(`--changelog-paging capped --max-page-size ${maxPageSize}: a brand's desc edited by hand is seen`, async () => {
      const project = await testProject({ emulator: { switches: { changelogPaging: "capped", maxPageSize } } });
      projects.push(project);
      await project.copyExamples(path.join(repoRoot, "examples/catalogue"));
      const applied = await project.cli(["apply", "--auto-approve", "-q"]);
      expect(applied.code, applied.stderr).toBe(0);
      const opts = { cwd: project.dir, env: project.env };
      await plan({ ...opts, refresh: "changelog" });
      await plan({ ...opts, refresh: "changelog" });

      const api = createClient({ tenant: "demo", baseUrl: project.emulator.tenantUrl("demo"), token: project.tokens.demo! });
      const brand = (await api.listBrands())[0]!;
      await api.updateBrand(brand.id, { desc: "Edited by hand" });
      await api.close();

      const viaFeed = await plan({ ...opts, refresh: "changelog" });
      const full = await plan({ ...opts, refresh: "full" });
      expect(full.plan.actions.length).toBeGreaterThan(0);
      expect.soft(viaFeed.plan.actions, JSON.stringify(viaFeed.refresh)).toEqual(full.plan.actions);
      const drift = await project.cli(["drift", "--refresh=changelog", "--detailed-exitcode", "-q"]);
      const fullDrift = await project.cli(["drift", "--refresh=full", "--detailed-exitcode", "-q"]);
      expect(fullDrift.code, fullDrift.stderr).toBe(2);
      expect.soft(drift.code, drift.stderr).toBe(2);

      // Why it read in full, in one line: on stderr for the text plan, in the JSON drift report's refresh.
      const why = "the changelog feed answers without paging or meta.total, so a list cut at the service's page size cannot be told from a whole one";
      const text = await project.cli(["plan", "--refresh=changelog"]);
      expect(text.stderr.split("\n").filter((l) => l.includes("read in full"))).toEqual([expect.stringContaining(`; read in full: ${why}`)]);
      const json = await project.cli(["drift", "--refresh=changelog", "--format", "json"]);
      expect(JSON.parse(json.stdout).refresh).toEqual({ mode: "full", fallback: why, feed_requests: expect.any(Number) });
    });
});
