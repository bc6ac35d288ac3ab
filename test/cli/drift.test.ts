/**
 * `pimctl drift`: after an apply, records changed by hand through the API are
 * reported with the changelog entry that names them, on a known history (the
 * entries' times are pinned after the changes).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type PimClient } from "../../src/api/client.js";
import { sinceTime } from "../../src/cli/commands/drift.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";

let project: TestProject;
let api: PimClient;
const schema = JSON.parse(readFileSync(path.join(repoRoot, "schemas/drift.schema.json"), "utf8")) as object;

beforeAll(async () => {
  project = await testProject({
    config: (urls) =>
      [
        "dir: catalogue",
        "tenants:",
        "  demo:",
        `    base_url: ${urls.demo}`,
        "    token_env: PIMCTL_DEMO_TOKEN",
        "versions: { French: 2, German: 3 }",
        "",
      ].join("\n"),
  });
  await project.copyExamples(path.join(repoRoot, "examples/catalogue"));
  const applied = await project.cli(["apply", "--auto-approve", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  api = createClient({ tenant: "demo", baseUrl: project.emulator.tenantUrl("demo"), token: project.tokens.demo! });
});
afterAll(async () => {
  await api?.close();
  await project?.close();
});

describe("pimctl drift", () => {
  it("says there is none right after an apply, and exits 0 with --detailed-exitcode", async () => {
    const r = await project.cli(["drift", "--detailed-exitcode"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^No drift: tenant "demo" matches the manifests \(checked \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\.\n$/);
  });

  it("names when each drifted record changed, from the feed (known history)", async () => {
    const store = project.emulator.store("demo");
    const before = store.changelogs.length;
    const brands = await api.listBrands();
    const alpine = brands.find((b) => b.name === "Alpine Optics")!;
    const casa = brands.find((b) => b.name === "Casa Mobili")!;
    const attribute = (await api.listAttributes()).find((a) => a.name === "Activewear clothing features")!;
    const group = (await api.listDisplayGroups()).find((g) => g.name === "Basics")!;
    await api.updateBrand(alpine.id, { desc: "Changed by hand" });
    await api.updateBrand(alpine.id, { seo_title: "Changed again" });
    await api.updateAttribute(attribute.id, { publish: false });
    await api.deleteBrand(casa.id);
    await api.updateDisplayGroup(group.id, { name: "Basics (old)" });
    // The history, pinned: the apply's entries on 1 November, each entry this test caused at a known time.
    for (const e of store.changelogs.slice(0, before)) e.updated_at = "2026-11-01T00:00:00Z";
    const times = ["2026-11-20T10:14:03Z", "2026-11-20T10:15:00Z", "2026-11-21T08:00:00Z", "2026-11-22T09:30:00Z"];
    const ours = store.changelogs.slice(before);
    expect(ours.map((e) => `${e.entity_type}:${e.change_type}`)).toEqual(["brand:full", "brand:full", "attribute:full", "brand:delete"]);
    ours.forEach((e, i) => (e.updated_at = times[i]!));

    const r = await project.cli(["drift", "--format", "json", "--detailed-exitcode"]);
    expect(r.code, r.stderr).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(new Ajv({ allErrors: true }).validate(schema, report)).toBe(true);
    const item = (address: string) => report.items.find((i: { address: string }) => i.address === address);
    // The newest entry of the brand, not the first.
    expect(item('brand["Alpine Optics"]')).toEqual({
      address: 'brand["Alpine Optics"]',
      op: "update",
      fields: ["desc", "seo_title"],
      entity: { type: "brand", id: alpine.id },
      changed_at: "2026-11-20T10:15:00Z",
      changelog_id: ours[1]!.id,
      change_type: "full",
      // The manifests are as applied (the ledger's fingerprint of the entry): the tenant changed.
      origin: "tenant",
    });
    expect(item('attribute["Activewear clothing features"]')).toMatchObject({
      op: "update",
      fields: ["publish"],
      changed_at: "2026-11-21T08:00:00Z",
      changelog_id: ours[2]!.id,
    });
    // Deleted by hand: no id in the tenant, but the ledger knows the one pimctl created, and the feed its deletion.
    expect(item('brand["Casa Mobili"]')).toMatchObject({
      op: "create",
      entity: { type: "brand", id: casa.id },
      changed_at: "2026-11-22T09:30:00Z",
      changelog_id: ours[3]!.id,
      change_type: "delete",
      note: `id ${casa.id} from the ledger: the record pimctl owned that is gone from the tenant`,
    });
    // Renamed by hand: the ledger knows its id, so it is renamed back, not created again.
    expect(item('display_group["Basics"]')).toMatchObject({ op: "rename", fields: ["name"], note: "display groups are not in the changelog feed" });
    expect(report.feed).toEqual({ entity_types: ["attribute", "brand"], entries: expect.any(Number) });

    const text = await project.cli(["drift"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`  brand["Alpine Optics"]: desc, seo_title changed; changed in the tenant 2026-11-20T10:15:00Z, changelog ${ours[1]!.id}\n`);
    expect(text.stdout).toContain(`  display_group["Basics"]: renamed; display groups are not in the changelog feed\n`);

    const md = await project.cli(["drift", "--format", "markdown"]);
    expect(md.stdout).toMatch(
      /^# Catalogue drift on `demo`\n\n\d+ differences between the manifests and tenant "demo" \(checked [^)]+\)\.\n\n\| Record \| What differs \| When \(changelog\) \|\n\|---\|---\|---\|\n/,
    );
    expect(md.stdout).toContain(
      `| \`brand["Alpine Optics"]\` | desc, seo_title changed | changed in the tenant 2026-11-20T10:15:00Z, changelog ${ours[1]!.id} |`,
    );

    // --since leaves older entries out, and says so.
    const recent = await project.cli(["drift", "--format", "json", "--since", "2026-11-21T00:00:00Z"]);
    const since = JSON.parse(recent.stdout);
    expect(since.feed.since).toBe("2026-11-21T00:00:00Z");
    expect(since.items.find((i: { address: string }) => i.address === 'brand["Alpine Optics"]')).toMatchObject({
      note: `no changelog entry since 2026-11-21T00:00:00Z for brand ${alpine.id}`,
    });
  });

  it("reads --since as a time or a duration back from now", () => {
    const now = new Date("2026-11-24T12:00:00Z");
    expect(sinceTime("7d", now)).toBe("2026-11-17T12:00:00Z");
    expect(sinceTime("24h", now)).toBe("2026-11-23T12:00:00Z");
    expect(sinceTime("2026-11-01T00:00:00Z", now)).toBe("2026-11-01T00:00:00Z");
    expect(() => sinceTime("soon", now)).toThrow(/invalid duration/);
  });
});
