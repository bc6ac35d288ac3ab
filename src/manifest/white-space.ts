/**
 * White space around a name. YAML separates with space and tab only, so a
 * no-break space or an ideographic space at the end of `name: Acme ` is part of
 * the name, invisible in a terminal and in most editors. Such a name is kept as
 * written (an exported tenant must load as it is) and warned about, for every
 * Unicode white-space class, not only what String#trim knows (it misses NEL).
 */

/** Unicode's White_Space property, and U+FEFF (a byte order mark inside text is invisible too). */
const EDGE = /^[\p{White_Space}\uFEFF]|[\p{White_Space}\uFEFF]$/u;
const ALL = /^[\p{White_Space}\uFEFF]*$/u;

const NAMES: Record<string, string> = {
  " ": "space",
  "\t": "tab",
  "\n": "line feed",
  "\v": "vertical tab",
  "\f": "form feed",
  "\r": "carriage return",
  "\u0085": "next line",
  "\u00a0": "no-break space",
  "\u1680": "ogham space mark",
  "\u2000": "en quad",
  "\u2001": "em quad",
  "\u2002": "en space",
  "\u2003": "em space",
  "\u2004": "three-per-em space",
  "\u2005": "four-per-em space",
  "\u2006": "six-per-em space",
  "\u2007": "figure space",
  "\u2008": "punctuation space",
  "\u2009": "thin space",
  "\u200a": "hair space",
  "\u2028": "line separator",
  "\u2029": "paragraph separator",
  "\u202f": "narrow no-break space",
  "\u205f": "medium mathematical space",
  "\u3000": "ideographic space",
  "\ufeff": "zero width no-break space (byte order mark)",
};

const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} (${NAMES[c] ?? "white space"})`;

/**
 * Undefined when the name neither starts nor ends with white space (or is only
 * white space, which the schema refuses); else which characters, e.g.
 * `ends with U+00A0 (no-break space)`.
 */
export function edgeWhiteSpace(name: string): string | undefined {
  if (!EDGE.test(name) || ALL.test(name)) return undefined;
  const chars = [...name];
  const parts: string[] = [];
  const lead = chars.findIndex((c) => !ALL.test(c));
  if (lead > 0) parts.push(`starts with ${chars.slice(0, lead).map(codePoint).join(", ")}`);
  let trail = chars.length;
  while (ALL.test(chars[trail - 1]!)) trail--;
  if (trail < chars.length) parts.push(`ends with ${chars.slice(trail).map(codePoint).join(", ")}`);
  return parts.join(" and ");
}
