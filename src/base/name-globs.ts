/**
 * Shell-style globs over plain names (no path segments): `*` any run of characters, `?` one
 * character, `[abc]`, `[a-z]` and `[!abc]` (or `[^abc]`) a class. A `[` with no closing `]`
 * is a literal. Used to pick tenants by name (`prod-*`), where names never contain `/`.
 */

/** Whether `text` holds a glob character at all (a plain name is matched exactly). */
export function isGlob(text: string): boolean {
  return /[*?[]/.test(text);
}

/** A glob's pieces: a class (its text as written and its body, negation removed) or any other character. */
type GlobPiece = { class: string; body: string; negated: boolean } | { char: string };

function globPieces(glob: string): GlobPiece[] {
  const pieces: GlobPiece[] = [];
  for (let i = 0; i < glob.length; i++) {
    const close = glob[i] === "[" ? glob.indexOf("]", i + 2) : -1;
    if (close < 0) {
      pieces.push({ char: glob[i]! });
      continue;
    }
    const body = glob.slice(i + 1, close);
    const negated = body.startsWith("!") || body.startsWith("^");
    pieces.push({ class: glob.slice(i, close + 1), body: negated ? body.slice(1) : body, negated });
    i = close;
  }
  return pieces;
}

/** The ranges of a class body (`a-z` in `[a-z0]`), as a regular expression's class reads them. */
function classRanges(body: string): Array<[string, string]> {
  const ranges: Array<[string, string]> = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === "-" && i + 2 < body.length) {
      ranges.push([body[i]!, body[i + 2]!]);
      i += 2;
    }
  }
  return ranges;
}

/**
 * Why a glob cannot be used as written, for a message ("the class [z-a] has a range that runs
 * backwards (z-a)..."), or undefined: nameGlob accepts every glob this passes.
 */
export function globProblem(glob: string): string | undefined {
  for (const piece of globPieces(glob)) {
    if (!("class" in piece)) continue;
    const backwards = classRanges(piece.body).find(([low, high]) => low.charCodeAt(0) > high.charCodeAt(0));
    if (backwards) {
      const [a, b] = backwards;
      return `the class ${piece.class} has a range that runs backwards (${a}-${b}); write it low to high, as in [${b}-${a}]`;
    }
  }
  return undefined;
}

/** A RegExp matching the whole of a name against one glob (check globProblem first: a backwards range throws). */
export function nameGlob(glob: string): RegExp {
  const re = globPieces(glob)
    .map((p) => {
      if ("class" in p) return `[${p.negated ? "^" : ""}${p.body.replace(/[\\\]^]/g, "\\$&")}]`;
      if (p.char === "*") return ".*";
      if (p.char === "?") return ".";
      return p.char.replace(/[.+^${}()|[\\\]]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${re}$`, "s");
}
