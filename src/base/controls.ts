/**
 * Text that a manifest or a tenant supplies (names, values, long texts, notes,
 * error messages) reaches a reviewer's terminal, a pull-request comment, a CI
 * log. Control characters in it would act instead of being read: ESC sequences
 * move the cursor and erase lines, BEL rings, CR overprints a line, C1 controls
 * (U+009B is a one-character CSI) do what ESC does, and bidi overrides and
 * isolates (U+202A–202E, U+2066–2069) reorder what a reviewer reads ("Trojan
 * Source"). So every renderer passes data through `escapeControls` on its way
 * into the output, and each such character is shown as JSON writes it (`\t`,
 * `\n`, `\r`, `\b`, `\f`, else `\u` and four hex digits: `\u001b`, `\u009b`,
 * `\u202e`): a value reads the same in text, markdown and `--format json`,
 * where values are JSON-quoted anyway. Only the data is escaped: pimctl's own
 * colours and line breaks are added around it, after.
 *
 * Escaping is idempotent (its output holds no control character), so a string
 * escaped twice on its way out reads the same as once.
 */

/** Regex classes: C0, DEL, C1, and the bidi embeddings, overrides and isolates. */
const CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069";
/** The same but newline. */
const CONTROLS_BUT_NEWLINE = "\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069";
/** The same but JSON's white space (tab, LF, CR): raw in JSON text, those can only sit between tokens. */
const CONTROLS_BUT_JSON_SPACE = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069";

/**
 * A class of characters to escape: `search` with the plain regex finds none in
 * most strings, twice as fast as a `replace` that finds none (a plan renders
 * hundreds of thousands of names and values); `replace` runs when there is one.
 */
function escaper(chars: string): (text: string) => string {
  const any = new RegExp(`[${chars}]`);
  const every = new RegExp(`[${chars}]`, "g");
  return (text) => (text.search(any) === -1 ? text : text.replace(every, escapeOne));
}

const SHORT: Record<string, string> = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };

function escapeOne(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

const escapeAll = escaper(CONTROLS);
const escapeButNewlines = escaper(CONTROLS_BUT_NEWLINE);
const escapeButJsonSpace = escaper(CONTROLS_BUT_JSON_SPACE);

/**
 * `text` with every control character shown as its escape. `keepNewlines`:
 * for text whose line breaks are layout (a message of several lines, a stack
 * trace); a line break inside a name or a one-line message is data, and escaped.
 */
export function escapeControls(text: string, opts: { keepNewlines?: boolean } = {}): string {
  return opts.keepNewlines ? escapeButNewlines(text) : escapeAll(text);
}

/**
 * JSON text made safe to print, still the same document: JSON.stringify escapes
 * C0 but leaves DEL, C1 and bidi characters raw inside strings; as `\u` escapes
 * any JSON reader decodes them to the same value. Tab, LF and CR are left: raw,
 * they can only be JSON's white space.
 */
export function escapeJsonText(text: string): string {
  return escapeButJsonSpace(text);
}

/** A value as JSON text that is safe to print (escapeJsonText). */
export function jsonText(value: unknown, indent?: number): string {
  return escapeJsonText(JSON.stringify(value, null, indent));
}
