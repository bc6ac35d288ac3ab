/**
 * Docs a reader can follow: every relative link in every committed Markdown file leads to a file
 * or folder of the repository, and every #anchor to a heading (or an explicit anchor) of the file
 * it names. A page moved or a heading renamed without its links fails here, naming file and line.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isExternal, markdownAnchors, markdownLinks, slug } from "./markdown.js";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
// Committed, and new files not ignored yet: a page is checked before its first commit.
const committed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"], { cwd: ROOT, encoding: "utf8" })
  .split("\0")
  .filter((f) => f && existsSync(path.join(ROOT, f)));

const anchorsOf = new Map<string, Set<string>>();
const anchors = (file: string) => {
  if (!anchorsOf.has(file)) anchorsOf.set(file, markdownAnchors(readFileSync(file, "utf8")));
  return anchorsOf.get(file)!;
};

/** What is wrong with one link of `from` (a path relative to the repository), or undefined. */
function broken(from: string, target: string): string | undefined {
  if (isExternal(target) || target === "") return undefined;
  const [rawPath, rawAnchor] = target.split("#", 2) as [string, string | undefined];
  const file = rawPath === "" ? path.join(ROOT, from) : path.resolve(ROOT, path.dirname(from), decodeURIComponent(rawPath));
  if (!file.startsWith(ROOT + path.sep)) return `${target}: outside the repository`;
  if (!existsSync(file)) return `${target}: no such file`;
  if (rawAnchor === undefined || !file.endsWith(".md") || statSync(file).isDirectory()) return undefined;
  return anchors(file).has(decodeURIComponent(rawAnchor)) ? undefined : `${target}: no heading makes #${rawAnchor}`;
}

describe("links in the committed Markdown", () => {
  it("finds the Markdown files (the README among them)", () => {
    expect(committed).toContain("README.md");
    expect(committed.length).toBeGreaterThan(10);
  });

  it("lead to files that exist, and to headings that exist", () => {
    const problems: string[] = [];
    for (const f of committed) {
      for (const link of markdownLinks(readFileSync(path.join(ROOT, f), "utf8"))) {
        const why = broken(f, link.target);
        if (why) problems.push(`${f}:${link.line}: ${why}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("reads links and anchors as GitHub renders them (the checker itself can fail)", () => {
    const text = [
      "# Exit codes",
      "## Reading the tenant through the changelog (`--refresh=changelog`)",
      "### --out and --print-to",
      "## Exit codes",
      '### brand <a id="brand"></a>',
      "See [codes](#exit-codes), ![img](a.png), [ref]: docs/x.md and `[not](a link)`.",
      "```sh",
      "[not](inside-a-fence.md)",
      "```",
      '[t](docs/y.md#z "title")',
    ].join("\n");
    expect([...markdownAnchors(text)]).toEqual([
      "exit-codes",
      "reading-the-tenant-through-the-changelog---refreshchangelog",
      "--out-and---print-to",
      "exit-codes-1",
      "brand",
    ]);
    expect(markdownLinks(text).map((l) => `${l.line}:${l.target}`)).toEqual(["6:#exit-codes", "6:a.png", "10:docs/y.md#z"]);
    expect(markdownLinks("[ref]: docs/x.md\n")).toEqual([{ target: "docs/x.md", line: 1 }]);
    expect(slug("Configuration: pimctl.yaml")).toBe("configuration-pimctlyaml");
    expect(broken("README.md", "docs/no-such-page.md")).toBe("docs/no-such-page.md: no such file");
    expect(broken("README.md", "#no-such-heading")).toBe("#no-such-heading: no heading makes #no-such-heading");
    expect(broken("README.md", "https://example.com/x.md#y")).toBeUndefined();
  });
});
