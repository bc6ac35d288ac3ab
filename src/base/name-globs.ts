/**
 * Shell-style globs over plain names (no path segments): `*` any run of characters, `?` one
 * character, `[abc]`, `[a-z]` and `[!abc]` (or `[^abc]`) a class. A `[` with no closing `]`
 * is a literal. Used to pick tenants by name (`prod-*`), where names never contain `/`.
 */

/** Whether `text` holds a glob character at all (a plain name is matched exactly). */
export function isGlob(text: string): boolean {
  return /[*?[]/.test(text);
}

/** A RegExp matching the whole of a name against one glob. */
export function nameGlob(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*") re += ".*";
    else if (ch === "?") re += ".";
    else if (ch === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        re += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      re += `[${negated ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      i = close;
    } else re += ch.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "s");
}
