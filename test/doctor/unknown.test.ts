/**
 * A tenant answering in ways no reading of the switches table covers: a real HTTP proxy in front
 * of the emulator rewrites what it sends (dates in a local form, booleans as "yes"/"no", the
 * display groups in another envelope, a search miss as {"data": null}, a changelog meta.total seven
 * above what any reading counts). Doctor names each as
 * unknown, with the request, and says what pimctl does there; never a known reading; exit 1.
 */
import { afterEach, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { forwardingProxy, type ForwardingProxy } from "../helpers/forwarding-proxy.js";
import { findingOf, runDoctor, seedTenant } from "./fixture.js";

let p: TestProject | undefined;
let proxy: ForwardingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await p?.close();
  p = proxy = undefined;
});

const BOOLEANS = new Set(["publish", "excluded", "is_visible", "is_smart", "in_navigation", "thumbnail", "sync", "is_tree", "is_product_attribute"]);

/** 2026-11-27T16:35:09Z -> 27.11.2026 16:35 (a form no reading sends, nor pimctl reads). */
const localDate = (v: string) => v.replace(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}).*$/, "$3.$2.$1 $4:$5");

function rewrite(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rewrite);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>).map(([k, x]) => {
      if (k === "links" || k === "meta") return [k, x];
      if (BOOLEANS.has(k) && x !== null && typeof x !== "object") return [k, x === true || x === 1 || x === "1" ? "yes" : "no"];
      if ((k === "created_at" || k === "updated_at") && typeof x === "string") return [k, localDate(x)];
      return [k, rewrite(x)];
    }),
  );
}

/** Forwards to the emulator and rewrites its answers into forms no reading covers. */
async function startProxy(upstream: string): Promise<string> {
  proxy = await forwardingProxy(upstream, {
    rewrite: ({ method, route: path }, up) => {
      let text = up.text;
      if (method === "POST" && path.endsWith("/search") && up.status === 200 && !text.trim()) text = '{"data":null}';
      else if (text.trim().startsWith("{") || text.trim().startsWith("[")) {
        let json = rewrite(JSON.parse(text));
        if (path.endsWith("/display-groups")) json = { data: (json as { display_groups: unknown }).display_groups };
        const meta = (json as { meta?: { total?: unknown } }).meta;
        if (path.endsWith("/changelogs") && typeof meta?.total === "number") meta.total += 7;
        text = JSON.stringify(json);
      }
      return { text, headers: { "content-type": "application/json" } };
    },
  });
  return proxy.origin;
}

it("names what no reading covers as unknown, with the request and what pimctl does there, and exits 1", { timeout: 60_000 }, async () => {
  p = await testProject();
  await seedTenant(p.emulator, "demo", p.tokens.demo!);
  const origin = await startProxy(p.emulator.url);
  await p.write("pimctl.yaml", `dir: catalogue\ntenants:\n  demo:\n    base_url: ${origin}/demo/api/v1\n    token_env: PIMCTL_DEMO_TOKEN\n`);
  const { code, report, stderr } = await runDoctor(p);

  const dates = findingOf(report, "dateFormat");
  expect(dates.outcome).toBe("unknown");
  expect(dates.seen).toMatch(/_at sent as "\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}"/);
  expect(dates.means).toContain("cannot read");
  expect(dates.evidence[0]!.request).toMatch(/^GET \//);

  const bools = findingOf(report, "boolFormat");
  expect(bools.outcome).toBe("unknown");
  expect(bools.seen).toMatch(/sent as "(yes|no)"/);
  expect(bools.means).toContain("cannot read");

  const lists = findingOf(report, "paginateAllLists");
  expect(lists.outcome).toBe("unknown");
  expect(lists.seen).toContain("GET /display-groups answered 200 with keys: data");
  expect(lists.means).toContain("refuses to read display groups");
  expect(report.reach.find((r) => r.kind === "display_groups")!.problem).toContain("keys: data");

  const miss = findingOf(report, "searchEmpty");
  expect(miss.outcome).toBe("unknown");
  expect(miss.seen).toContain('{\\"data\\":null}');
  expect(miss.means).toContain("reads it as nothing found");

  const total = findingOf(report, "changelogTotal");
  expect(total.outcome).toBe("unknown");
  expect(total.seen).toMatch(/^the whole feed: (\d+) entries, meta\.total \d+; /);
  const [, listed, said] = /^the whole feed: (\d+) entries, meta\.total (\d+)/.exec(total.seen!)!;
  expect(Number(said)).toBe(Number(listed) + 7);
  expect(total.means).toContain("--refresh=changelog reads in full and says why in one line");

  // Unknown, never taken for a known reading; the rest of what the proxy passes through is still known.
  expect(report.switches).not.toHaveProperty("dateFormat");
  expect(report.switches).not.toHaveProperty("boolFormat");
  expect(report.switches).not.toHaveProperty("changelogTotal");
  expect(findingOf(report, "idFormat")).toMatchObject({ outcome: "known", reading: "number" });
  expect(code).toBe(1);
  expect(stderr).toContain("doctor: dateFormat: the tenant answers in a way no reading covers");
});
