/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The HTML review page's structure on golden plans, read as a DOM (linkedom),
 * never compared as bytes: counts, the call-outs, the tree with moves, renames
 * and deletes, records with before/after, versions side by side, word diffs.
 */
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/planner.js";
import { renderPlan } from "../../src/render/index.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../../src/plan/types.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";

const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });
const facts = { generatedAt: "2026-11-24T02:00:00Z", commit: "0123abcd", source: "plan" };

function page(p: Plan = plan) {
  const html = renderPlan(p, "html", { color: false, page: facts });
  return { html, document: parseHTML(html).document };
}

const text = (el: Element | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
const nodeNamed = (doc: Document, name: string) => [...doc.querySelectorAll("li.node")].filter((li) => text(li.querySelector(":scope > .row .n")) === name);

describe("html page: the top", () => {
  const { document } = page();
  it("names the tenant, when, the commit and the plan format", () => {
    const facts = Object.fromEntries([...document.querySelectorAll(".facts > div")].map((d) => [text(d.querySelector("dt")), text(d.querySelector("dd"))]));
    expect(facts).toMatchObject({ tenant: "demo", made: "2026-11-24T02:00:00Z", commit: "0123abcd", "plan format": PLAN_FORMAT_VERSION });
    expect(text(document.querySelector("title"))).toBe("pimctl plan: demo");
  });
  it("counts actions per kind and operation, with totals that match the plan", () => {
    const cell = (kind: string, op: string) => text(document.querySelector(`table.counts tr[data-kind="${kind}"] td[data-op="${op}"]`));
    expect(cell("categories", "move")).toBe("1");
    expect(cell("categories", "rename")).toBe("1");
    expect(cell("brands", "unsupported")).toBe("1");
    for (const op of ["create", "update", "rename", "move", "delete"] as const) {
      expect(text(document.querySelector(`table.counts tfoot td[data-op="${op}"]`))).toBe(String(plan.summary[op]));
    }
    expect(text(document.querySelector("table.counts tfoot td:last-child"))).toBe(String(plan.actions.length));
  });
  it("calls out destructive actions first, each linked to its record on the page", () => {
    const section = document.querySelector("header section.attention.destructive")!;
    expect(section).not.toBeNull();
    const links = [...section.querySelectorAll("li a")];
    expect(links.map(text)).toEqual(plan.actions.filter((a) => a.flags.destructive).map((a) => a.address));
    for (const a of links) expect(document.getElementById(a.getAttribute("href")!.slice(1))).not.toBeNull();
    // Destructive comes before everything else under the heading.
    expect(document.querySelector("header section.attention")).toBe(section);
  });
});

describe("html page: the category tree", () => {
  const { document } = page();
  it("shows a move at both places, linked both ways", () => {
    const [moved] = nodeNamed(document, "Shoes").filter((li) => li.classList.contains("st-move"));
    const link = moved!.querySelector(":scope > .row a.mv")!;
    expect(text(link)).toBe("moved from Footwear › Shoes");
    const ghost = document.getElementById(link.getAttribute("href")!.slice(1))!;
    expect(ghost.classList.contains("ghost")).toBe(true);
    expect(ghost.closest("li.node:not(.ghost)")!.querySelector(".n")!.textContent).toBe("Footwear");
    expect(ghost.querySelector("a.mv")!.getAttribute("href")).toBe(`#${moved!.id}`);
    expect(moved!.parentElement!.closest("li.node")!.querySelector(".n")!.textContent).toBe("Apparel");
  });
  it("marks each op by a symbol and a word as well as a colour", () => {
    const badge = (name: string) => nodeNamed(document, name)[0]!.querySelector(":scope > .row .op")!;
    expect(text(badge("Garden"))).toBe("+");
    expect(badge("Garden").getAttribute("aria-label")).toBe("created");
    expect(text(badge("Footwear"))).toBe("−");
    expect(text(badge("Shirts"))).toBe("✎");
    expect(text(nodeNamed(document, "Shirts")[0]!.querySelector(".was"))).toBe("renamed from “Tops”");
    expect(text(nodeNamed(document, "Footwear")[0]!.querySelector(".flag"))).toBe("destructive");
    expect(text(badge("Apparel"))).toBe("~");
  });
  it("opens changed branches: every node with children below it is expanded", () => {
    const branches = [...document.querySelectorAll("li.node[aria-expanded]")];
    expect(branches.length).toBeGreaterThan(0);
    for (const li of branches) expect(li.getAttribute("aria-expanded")).toBe("true");
  });
  it("shows a category's changed fields before and after, and its sub-records", () => {
    const apparel = nodeNamed(document, "Apparel")[0]!;
    const row = apparel.querySelector(":scope > .detail table.fields tbody tr")!;
    expect(text(row.querySelector("th"))).toBe("attribute_sets");
    expect(text(row.querySelector(".before"))).toBe("[]");
    expect(text(row.querySelector(".after"))).toBe('["Apparel"]');
    const garden = nodeNamed(document, "Garden")[0]!;
    expect(text(garden.querySelector(".subs .sublabel"))).toBe("web id “Webshop”");
  });
});

describe("html page: the records of other kinds", () => {
  const { document } = page();
  const record = (name: string) => [...document.querySelectorAll("li.rec")].find((li) => text(li.querySelector(":scope > .row .n")) === name)!;
  it("lists an attribute's type values with their own changes", () => {
    const colour = record("Colour");
    expect(colour.classList.contains("st-rename")).toBe(true);
    const subs = [...colour.querySelectorAll(".subs > li.sub")].map((li) => `${text(li.querySelector(".op"))} ${text(li.querySelector(".sublabel"))}`);
    expect(subs).toEqual(["✎ value “Navy”", "− value “Mauve”"]);
  });
  it("puts language versions side by side, one column per version", () => {
    const acme = record("Acme");
    // The brand's Colour value: master and French created together.
    const sub = [...acme.querySelectorAll(".subs > li.sub")].find((li) => text(li.querySelector(".sublabel")) === "attribute “Colour”")!;
    const table = sub.querySelector("table.versions")!;
    const heads = [...table.querySelectorAll("thead th")].map((th) => text(th).replace(/ [+~✎→−!]$/, ""));
    expect(heads).toEqual(["field", "master", "French"]);
    const cells = [...table.querySelectorAll("tbody tr")[0]!.querySelectorAll("td")].map((td) => text(td.querySelector(".after")));
    expect(cells).toEqual(["Red", "Rouge"]);
  });
  it("shows what API v1 cannot write as not applied: the tenant's text and the manifests', no diff, no colours of a change", () => {
    const acme = record("Acme");
    const table = [...acme.querySelectorAll("table.versions")].find((t) => text(t.querySelector("thead")).includes("French"))!;
    const cell = table.querySelector("tbody td")!;
    expect(cell.querySelectorAll("ins, del, .after, .before").length).toBe(0);
    expect(text(cell)).toBe("in the tenant Outils in the manifests, not applied Outils depuis 1950");
    expect(cell.querySelector(".unapplied")).not.toBeNull();
  });
  it("shows long text as a word-level diff", () => {
    const footer = record("footer");
    expect(text(footer.querySelector(".wdiff del"))).toBe("2");
    expect(text(footer.querySelector(".wdiff ins"))).toBe("two");
    expect(text(footer.querySelector(".wdiff"))).toContain("Line one");
  });
});

describe("html page: self-contained, safe and stable", () => {
  it("loads nothing from outside: inline style and script, no external sources, a CSP that forbids them", () => {
    const { html, document } = page();
    expect(document.querySelectorAll("link, img[src], script[src], iframe").length).toBe(0);
    expect(document.querySelectorAll("script").length).toBe(1);
    expect(html).not.toMatch(/https?:\/\/(?!cdn\.example\.com)/);
    expect(html).not.toMatch(/@import|@font-face|url\(/);
    expect(document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute("content")).toContain("default-src 'none'");
  });
  it("escapes hostile names everywhere: they read back exactly and add no elements", () => {
    const hostile = ["</script><script>alert(1)</script>", 'He said "hi" ]. & <b>bold</b>', "Ünïcødé ✓ 'quote'"];
    const p = buildPlan({
      tenant: "<img src=x onerror=alert(1)>",
      desired: {
        ...desired,
        managed: ["categories"],
        categories: hostile.map((name) => ({ path: ["Root", name], name })).concat([{ path: ["Root"], name: "Root" }]),
      },
      remote: { ...remote, categories: [] },
      ledger,
      prune,
    }).plan;
    const { document } = page(p);
    expect(document.querySelectorAll("script").length).toBe(1);
    expect(document.querySelectorAll("img, b").length).toBe(0);
    const names = [...document.querySelectorAll("li.node .n")].map((n) => n.textContent);
    for (const name of hostile) {
      expect(names).toContain(name);
      expect(nodeNamed(document, name)[0]!.getAttribute("data-name")).toBe(name.toLowerCase());
    }
    expect(text(document.querySelector(".tenant"))).toBe("<img src=x onerror=alert(1)>");
  });
  it("is deterministic: the same plan and facts give the same bytes", () => {
    expect(page().html).toBe(page(structuredClone(plan)).html);
  });
  it("says so when there are no changes", () => {
    const same = buildPlan({ tenant: "demo", desired: { ...desired, managed: [] }, remote, ledger, prune }).plan;
    const { document } = page(same);
    expect(text(document.querySelector(".nochanges"))).toContain("No changes");
    expect(document.querySelectorAll("li.node, li.rec").length).toBe(0);
  });
});

describe("html page: unchanged records are counted, not drawn", () => {
  it("summarises unmanaged categories under the nearest drawn ancestor, closed when nothing below changed", () => {
    const p = buildPlan({
      tenant: "demo",
      desired: { ...desired, managed: ["categories"], categories: [{ path: ["A"], name: "A", status: "disabled" }] },
      remote: {
        ...remote,
        categories: [
          { id: 1, parent_id: null, path: ["A"], name: "A", status: "enabled", child_count: 2 },
          { id: 2, parent_id: 1, path: ["A", "x"], name: "x", child_count: 1 },
          { id: 3, parent_id: 2, path: ["A", "x", "y"], name: "y", child_count: 0 },
          { id: 4, parent_id: 1, path: ["A", "z"], name: "z", child_count: 0 },
          { id: 5, parent_id: null, path: ["B"], name: "B", child_count: 0 },
        ],
      },
      ledger,
      prune: {},
    }).plan;
    expect(p.unmanaged.length).toBe(4);
    const { document } = page(p);
    const a = nodeNamed(document, "A")[0]!;
    expect(a.getAttribute("aria-expanded")).toBe("false");
    expect(text(a.querySelector(":scope > ul > li.rest"))).toBe("3 unchanged categories in 2 subtrees, not shown");
    expect(text(document.querySelector("ul.tree > li.rest"))).toBe("1 unchanged category, not shown");
    expect(document.querySelectorAll("li.node").length).toBe(1);
  });
});

describe("html page: a pruned subtree is called out once", () => {
  it("lists the top of a deleted subtree with the number of categories below it", () => {
    const p = buildPlan({
      tenant: "demo",
      desired: { ...desired, managed: ["categories"], categories: [] },
      remote: {
        ...remote,
        categories: [
          { id: 1, parent_id: null, path: ["A"], name: "A", child_count: 1 },
          { id: 2, parent_id: 1, path: ["A", "x"], name: "x", child_count: 2 },
          { id: 3, parent_id: 2, path: ["A", "x", "y"], name: "y", child_count: 0 },
          { id: 4, parent_id: 2, path: ["A", "x", "z"], name: "z", child_count: 0 },
        ],
      },
      ledger,
      prune: { categories: true },
    }).plan;
    expect(p.summary.delete).toBe(4);
    const { document } = page(p);
    const entries = [...document.querySelectorAll("header section.attention li")].map(text);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatch(/^− category\["A"\]: .*has 1 child category; with 3 deleted categories below$/);
    expect(text(document.querySelector("#destructive h2"))).toBe(`⚠ ${p.summary.destructive} destructive changes: data hangs on these records`);
    // The tree still shows every deleted category.
    expect(document.querySelectorAll("li.node.st-delete").length).toBe(4);
  });
});

describe("html page: what apply refuses and what looks like a move, called out first", () => {
  it("lists blocked deletes (the plan was made without --allow-delete) and move hints with the line to add", async () => {
    const { decideDeletes } = await import("../../src/plan/delete-permission.js");
    const { moveHints } = await import("../../src/plan/hints.js");
    // Shoes moved from Footwear without previous_paths: a delete and a create that look alike.
    const unhinted = { ...desired, categories: desired.categories.map((c) => (c.name === "Shoes" ? { path: c.path, name: c.name } : c)) };
    const { plan: p } = buildPlan({ tenant: "demo", desired: unhinted, remote, ledger, prune });
    decideDeletes(p, false);
    p.hints = moveHints(p, unhinted, remote);
    const { document } = page(p);
    const blocked = document.querySelector("section.attention.blocked");
    expect(blocked).not.toBeNull();
    expect(text(blocked?.querySelector("h2"))).toMatch(/blocked deletes?: apply refuses this plan/);
    // The marker is a plain symbol, never an emoji (pictographs render as colour images, or not at all).
    expect(text(blocked?.querySelector("h2"))).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(text(blocked)).toContain("pimctl plan --allow-delete");
    expect(blocked!.querySelectorAll("li").length).toBeGreaterThan(0);
    // Blocked comes before the destructive list.
    const sections = [...document.querySelectorAll("section.attention")].map((s) => s.className);
    expect(sections.indexOf("attention blocked")).toBeLessThan(sections.indexOf("attention destructive"));
    const hints = document.querySelector("section.attention.hints");
    expect(p.hints.length).toBeGreaterThan(0);
    expect(text(hints)).toContain(p.hints[0]!.add);
    expect(text(hints)).toContain('category["Footwear/Shoes"]');
  });
});
