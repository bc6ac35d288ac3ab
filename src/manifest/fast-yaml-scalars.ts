/**
 * The scalars and the lexing of the YAML fast path (fast-yaml.ts): how a plain scalar
 * resolves (YAML 1.2 core schema, as the `yaml` library resolves it), how quoted
 * scalars unescape and where they end, and where a line's comment starts. Anything
 * outside the subset throws NotInSubset (`bail`), which parseFastYaml turns into
 * "undefined: ask the `yaml` library".
 *
 * White space: only spaces are trimmed here, never String#trim (see fast-yaml.ts).
 */

export class NotInSubset extends Error {}
export const SPACE = 32;

/** Without leading spaces (only spaces: see the note on white space in fast-yaml.ts). */
export function trimSpacesStart(s: string): string {
  let i = 0;
  while (s.charCodeAt(i) === SPACE) i++;
  return i === 0 ? s : s.slice(i);
}

/** Without trailing spaces. */
export function trimSpacesEnd(s: string): string {
  let i = s.length;
  while (i > 0 && s.charCodeAt(i - 1) === SPACE) i--;
  return i === s.length ? s : s.slice(0, i);
}

export const trimSpaces = (s: string): string => trimSpacesEnd(trimSpacesStart(s));
export const bail = (): never => {
  throw new NotInSubset();
};

const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/** YAML 1.2 core schema, as the `yaml` library resolves plain scalars. */
function resolvePlain(s: string): unknown {
  // Most scalars are words: only these first characters can start a null, a boolean or a number.
  const c = s.charCodeAt(0);
  if (c > 57 && c !== 70 && c !== 78 && c !== 84 && c !== 102 && c !== 110 && c !== 116 && c !== 126) return s;
  switch (s) {
    case "":
    case "~":
    case "null":
    case "Null":
    case "NULL":
      return null;
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
  }
  if (INT.test(s)) return Number(s);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return Number.parseInt(s.slice(2), 16);
  if (/^0o[0-7]+$/.test(s)) return Number.parseInt(s.slice(2), 8);
  if (FLOAT.test(s)) return Number(s);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(s)) return Number.NaN;
  return s;
}

const ESCAPES: Record<string, string> = { "\\": "\\", '"': '"', "/": "/", n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "0": "\0", " ": " " };

export function doubleQuoted(s: string): string {
  let out = "";
  for (let i = 1; i < s.length - 1; i++) {
    const ch = s[i]!;
    if (ch === '"') bail();
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = s[++i]!;
    if (e in ESCAPES) out += ESCAPES[e];
    else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) {
      out += String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 5), 16));
      i += 4;
    } else bail();
  }
  return out;
}

export function singleQuoted(s: string): string {
  const inner = s.slice(1, -1);
  if (/'(?!')/.test(inner.replace(/''/g, ""))) bail();
  return inner.replace(/''/g, "'");
}

/** Where a quoted scalar starting at `from` ends (index after the closing quote). */
export function quoteEnd(s: string, from: number): number {
  const q = s[from]!;
  for (let i = from + 1; i < s.length; i++) {
    if (q === '"' && s[i] === "\\") {
      i++;
      continue;
    }
    if (s[i] === q) {
      if (q === "'" && s[i + 1] === "'") {
        i++;
        continue;
      }
      return i + 1;
    }
  }
  return bail();
}

/**
 * Whether a quote at `i` opens a quoted scalar: at the start of the line, after a flow
 * indicator, after `key:` or after a sequence's `-`. Elsewhere (`Beat 'em up`) it is a
 * character of a plain scalar: treating it as an opening quote sent whole files with
 * such values (the Shopify taxonomy's attributes) to the slow parser.
 */
function opensQuoted(s: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && s[j] === " ") j--;
  if (j < 0) return true;
  const before = s[j]!;
  if ("[{,".includes(before)) return true;
  if (j === i - 1) return false; // glued to the text before it
  if (before === ":") return true;
  return before === "-" && trimSpaces(s.slice(0, j)) === "";
}

/** Content of a line without its trailing comment and spaces, respecting quotes and flow brackets. */
export function stripComment(s: string): string {
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    if ((ch === '"' || ch === "'") && opensQuoted(s, i)) {
      i = quoteEnd(s, i);
      continue;
    }
    if (ch === "#" && (i === 0 || s[i - 1] === " ")) return trimSpacesEnd(s.slice(0, i));
    i++;
  }
  return trimSpacesEnd(s);
}

const PLAIN_START_FORBIDDEN = new Set(["?", ":", ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "%", "@", "`", "'", '"']);

export function plainScalar(s: string, inFlow: boolean): unknown {
  if (s === "") return null;
  if (PLAIN_START_FORBIDDEN.has(s[0]!) || (s[0] === "-" && (s.length === 1 || s[1] === " "))) bail();
  if (s.includes(": ") || s.endsWith(":") || s.includes(" #") || s.includes("\t")) bail();
  if (inFlow && /[[\]{},]/.test(s)) bail();
  return resolvePlain(s);
}
