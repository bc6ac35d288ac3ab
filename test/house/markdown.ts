/**
 * Reading committed Markdown the way GitHub renders it, as far as links go: which relative
 * links a file holds (outside code), and which anchors its headings make. Used by the link
 * test and the folder README test.
 */

/** A link's target as written, and the line it is on (1-based). */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** The text with fenced code blocks blanked (kept as empty lines, so line numbers stay true). */
function withoutFences(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.trim() === open[1]) fence = undefined;
      return "";
    }
    if (open) {
      fence = open[1];
      return "";
    }
    return line;
  });
}

/** Inline code spans blanked: a `[x](y)` inside backticks is text, not a link. */
const withoutCodeSpans = (line: string) => line.replace(/(`+)[^`]*?\1/g, (m) => " ".repeat(m.length));

/** Every link target outside code: inline links and images `[text](target "title")`, `<a href>`, reference definitions. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutFences(text).forEach((raw, i) => {
    const line = withoutCodeSpans(raw);
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: m[1]!, line: i + 1 });
    for (const m of line.matchAll(/<a\s[^>]*href="([^"]*)"/g)) links.push({ target: m[1]!, line: i + 1 });
    const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (def) links.push({ target: def[1]!, line: i + 1 });
  });
  return links;
}

/** A heading's anchor as GitHub makes it (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/<[^>]*>/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .replace(/\*\*|\*/g, "")
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a file offers: its headings' slugs (a repeated one gets -1, -2, ...) and explicit `<a id>` / `<a name>`. */
export function markdownAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(text)) {
    for (const m of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Whether a link target leaves the repository's files (a scheme such as https:, mailto:). */
export const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);
