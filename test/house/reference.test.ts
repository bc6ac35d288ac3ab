/**
 * The command reference (docs/reference/) is the CLI's own --help: each page is rendered again
 * here, in-process, and compared with the committed one. A command's option, text or example
 * changed without `npm run docs:reference` fails, naming the page; so does a page left behind
 * by a command that is gone.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { helpText, listedCommands, referencePages } from "../../src/cli/reference.js";

const DIR = path.resolve(import.meta.dirname, "..", "..", "docs", "reference");
const HOW = "its command's --help changed: run `npm run docs:reference` and commit the page";

describe("the command reference", async () => {
  const pages = await referencePages();

  it("has a page per command, subcommands on their command's page, and no other page", () => {
    expect(Object.keys(pages)).toEqual(expect.arrayContaining(["README.md", "plan.md", "apply.md", "state.md", "translations.md", "doctor.md"]));
    expect(pages["state.md"]).toContain("## pimctl state push\n");
    expect(pages["translations.md"]).toContain("## pimctl translations mark-reviewed\n");
    const committed = readdirSync(DIR).filter((f) => f.endsWith(".md"));
    expect(
      committed.sort(),
      "pages in docs/reference/ no command makes, or commands without a page: run `npm run docs:reference` and commit docs/reference/",
    ).toEqual(Object.keys(pages).sort());
  });

  it.each(Object.keys(pages))("docs/reference/%s is the CLI's help as it is today", (name) => {
    expect(readFileSync(path.join(DIR, name), "utf8"), `docs/reference/${name}: ${HOW}`).toBe(pages[name]);
  });

  it("renders the help the CLI prints, and finds the commands in it (the check itself can fail)", async () => {
    const plan = await helpText(["plan"]);
    expect(plan).toMatch(/^pimctl plan\n/);
    expect(plan).toContain("--allow-delete");
    expect(pages["plan.md"]).toContain(plan);
    // A help text that gained an option is no longer the committed page.
    expect(pages["plan.md"]!.replace("--allow-delete ", "--allow-deletes")).not.toBe(readFileSync(path.join(DIR, "plan.md"), "utf8"));
    const top = await helpText([]);
    expect(listedCommands(top).map((w) => w.join(" "))).toEqual(expect.arrayContaining(["validate", "plan", "state", "completion"]));
    expect(listedCommands(await helpText(["state"])).map((w) => w.join(" "))).toEqual([
      "state show",
      "state pull",
      "state push",
      "state migrate",
      "state rm",
      "state unlock",
    ]);
  });
});
