/**
 * Readings seen on lists longer than a page: doctor reads the changelog across its pages to tell
 * what meta.total counts (each reading), and shows a cut limit on a list holding more records than
 * the page it is cut to (the answer lists a page's worth and more pages follow), not only by
 * meta.per_page.
 */
import { expect, it } from "vitest";
import { SWITCHES } from "../../src/emulator/switches.js";
import { testProject } from "../helpers/project.js";
import { findingOf, runDoctor, seedTenant } from "./fixture.js";

for (const total of SWITCHES.changelogTotal.readings!) {
  it(`names changelogTotal ${total} on a feed of several pages, and a cut limit where more records follow`, { timeout: 60_000 }, async () => {
    const p = await testProject({ emulator: { switches: { maxPageSize: 5, oversizedLimit: "clamp", changelogTotal: total } } });
    try {
      await seedTenant(p.emulator, "demo", p.tokens.demo!);
      const feed = p.emulator.store("demo").changelogs.length;
      expect(feed).toBeGreaterThan(5);
      const { report } = await runDoctor(p);

      const t = findingOf(report, "changelogTotal");
      expect({ outcome: t.outcome, reading: t.reading }, t.means).toEqual({ outcome: "known", reading: total });
      expect(t.evidence[0]!.shows).toContain(`the whole feed: ${feed} entries listed on ${Math.ceil(feed / 5)} pages`);
      expect(t.evidence.at(-1)!.shows).toMatch(/^the whole feed again: meta\.total /);

      const o = findingOf(report, "oversizedLimit");
      expect({ outcome: o.outcome, reading: o.reading }, o.means).toEqual({ outcome: "known", reading: "clamp" });
      expect(o.evidence.at(-1)).toMatchObject({ request: "GET /changelogs?limit=6", status: 200 });
      expect(o.evidence.at(-1)!.shows).toMatch(
        total === "absent" ? /^limit=6 taken: 5 records, links\.next to more/ : /^limit=6 taken: 5 records of meta\.total \d+, more pages/,
      );
      expect(findingOf(report, "maxPageSize").reading).toBe(5);
    } finally {
      await p.close();
    }
  });
}
