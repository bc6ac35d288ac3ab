/**
 * Writing into a YAML file's text without re-serialising it: the one way pimctl
 * edits files people wrote (`export --merge`, `translations import`). A value is
 * written in the quoting the old one used, and edits are spliced in at source
 * offsets, so comments, order, quoting and layout of everything else stay byte
 * for byte.
 */
import { stringify, type Scalar } from "yaml";

export interface TextSplice {
  start: number;
  end: number;
  text: string;
}

/** Letters first, then letters, digits, spaces and a few marks that mean nothing to YAML there; no space at the end. */
const PLAIN_WORDS = /^\p{L}[\p{L}\p{M}\p{N} '()\-./&+]*(?<! )$/u;
/** What YAML reads as a boolean or null (the core schema's spellings, and more: the library decides those). */
const RESERVED = /^(?:true|false|null)$/i;

/**
 * `value` as a YAML scalar's text where a scalar of type `like` stood: in its
 * quotes (single quotes only while they can hold it), else plain where that
 * reads back as the same string in every place pimctl writes one (a block or
 * flow map's value or key, on its key's line or below it), else double quotes.
 * Every text reads back as itself: `---`, `...`, indicators, numbers and
 * booleans, white space YAML does not trim (no-break space, U+2028, a byte
 * order mark), control and format characters (test/translations/yaml-scalar.test.ts,
 * a property test over arbitrary strings). A caller that would rather write a
 * block scalar for a text with line breaks checks for that first.
 */
export function scalarText(value: string, opts: { flow?: boolean; like?: Scalar["type"] } = {}): string {
  if (opts.like === "QUOTE_DOUBLE") return doubleQuoted(value);
  if (opts.like === "QUOTE_SINGLE" && VISIBLE.test(value)) return `'${value.replace(/'/g, "''")}'`;
  // Words are plain as they are (plainReadsBack would say so too, at a cost an import of 64,000 texts feels).
  if (PLAIN_WORDS.test(value) && !RESERVED.test(value)) return value;
  return plainReadsBack(value, opts.flow === true) ? value : doubleQuoted(value);
}

/** Letters, marks, numbers, punctuation, symbols and the space: what plain and single-quoted scalars hold as they are. */
const VISIBLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;
const VISIBLE_CHAR = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * Conservative: visible characters only, no space at either end, no indicator first (`-`, `?`
 * and `:` only before a visible character), not the document markers `---` and `...` first,
 * no ": " or " #" (a key, a comment),
 * no flow indicator inside a flow map, and the `yaml` library reads it as a string (not a
 * number, boolean or null).
 */
function plainReadsBack(value: string, flow: boolean): boolean {
  if (value === "" || !VISIBLE.test(value) || value.startsWith(" ") || value.endsWith(" ")) return false;
  if (/^([,[\]{}#&*!|>'"%@`]|[-?:](?= |$)|---|\.\.\.)/.test(value) || /: | #|:$/.test(value)) return false;
  if (flow && /[,[\]{}]/.test(value)) return false;
  return stringify(value, { lineWidth: 0 }) === `${value}\n`;
}

const ESCAPES: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0" };

/** A double-quoted scalar: `\` and `"` escaped, and every character that is not visible (or a space) as an escape by code point. */
function doubleQuoted(value: string): string {
  if (VISIBLE.test(value) && !/["\\]/.test(value)) return `"${value}"`;
  let out = "";
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    out +=
      ESCAPES[ch] ??
      (VISIBLE_CHAR.test(ch)
        ? ch
        : cp > 0xffff
          ? `\\U${cp.toString(16).toUpperCase().padStart(8, "0")}`
          : `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`);
  }
  return `"${out}"`;
}

/**
 * The text with every splice made, each at offsets of the original text (they
 * do not overlap); among splices at one offset, the one listed first ends up
 * first in the text. One pass: the pieces between splices are joined once (a
 * copy of the whole text per splice made 8,000 edits of a 1.4 MB file take 7 s).
 */
export function applySplices(text: string, splices: readonly TextSplice[]): string {
  const sorted = splices.map((s, i) => ({ ...s, i })).sort((a, b) => a.start - b.start || a.i - b.i);
  const pieces: string[] = [];
  let at = 0;
  for (const s of sorted) {
    pieces.push(text.slice(at, Math.max(at, s.start)), s.text);
    at = Math.max(at, s.end);
  }
  pieces.push(text.slice(at));
  return pieces.join("");
}

/**
 * A text that may hold `${name}` references, as it must be written into a
 * manifest so the loader reads it back: a reference to one of `names` stays a
 * reference; any other `${` is written `$${`, which the loader reads as a
 * literal `${`.
 */
export function templateText(text: string, names: ReadonlySet<string>): string {
  return text.includes("${")
    ? text.replace(/\$\{([^}]*)\}|\$\{/g, (m, name: string | undefined) => (name !== undefined && names.has(name) ? m : `$${m}`))
    : text;
}
