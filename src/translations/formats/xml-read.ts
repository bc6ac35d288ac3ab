/**
 * Reading XML for XLIFF: the parser's settings, elements by their XLIFF names whatever
 * prefix a file gives them, and the characters XML allows. Tools write XLIFF elements with
 * prefixes (`po2xliff -t` appends `<ns0:trans-unit xmlns:ns0="urn:oasis:names:tc:xliff:document:1.1">`):
 * an element in an XLIFF namespace (or in none) is read under its local name; one of another
 * namespace (an extension) keeps a `{namespace}name` key, which no reader looks up, and
 * which text reading refuses as inline markup rather than dropping it.
 */
import { XMLParser } from "fast-xml-parser";
import { PimctlError, PimctlErrors } from "../../errors.js";
import { codePoint, isXmlChar } from "./xml-chars.js";

export type XmlNode = Record<string, unknown>;

/** Element names that may repeat where pimctl reads them: always arrays. */
const REPEATED = new Set(["file", "group", "trans-unit", "unit", "segment", "note", "context-group", "context"]);

export const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  // Character references (&#13; for a carriage return) are decoded only with the HTML entity set on.
  htmlEntities: true,
  trimValues: false,
});

export const list = (v: unknown): XmlNode[] => (Array.isArray(v) ? (v as XmlNode[]) : v === undefined ? [] : [v as XmlNode]);

const XLIFF_NAMESPACE = /^urn:oasis:names:tc:xliff:document:\d+\.\d+$/;
type Scope = ReadonlyMap<string, string>;

/** The scope inside an element: its xmlns and xmlns:prefix attributes added. */
function declared(scope: Scope, node: unknown): Scope {
  if (typeof node !== "object" || node === null) return scope;
  const own = Object.entries(node as XmlNode).filter(([k]) => k === "@xmlns" || k.startsWith("@xmlns:"));
  return own.length ? new Map([...scope, ...own.map(([k, v]) => [k === "@xmlns" ? "" : k.slice(7), String(v)] as const)]) : scope;
}

/** The key an element is read under: its local name in XLIFF's namespaces (or none), `{namespace}name` in another. */
function keyOf(name: string, scope: Scope): string {
  const colon = name.indexOf(":");
  const namespace = scope.get(colon === -1 ? "" : name.slice(0, colon));
  const local = name.slice(colon + 1);
  if (namespace === undefined) return colon === -1 ? local : `{${name.slice(0, colon)}:}${local}`;
  return namespace === "" || XLIFF_NAMESPACE.test(namespace) ? local : `{${namespace}}${local}`;
}

/** The parsed tree with every element under the key keyOf gives it; REPEATED names as arrays. */
export function xliffElements(node: XmlNode, scope: Scope = new Map()): XmlNode {
  const out: XmlNode = {};
  for (const [name, value] of Object.entries(node)) {
    if (name.startsWith("@") || name === "#text") {
      out[name] = value;
      continue;
    }
    for (const child of Array.isArray(value) ? (value as unknown[]) : [value]) {
      const inner = declared(scope, child);
      const key = keyOf(name, inner);
      const read = typeof child === "object" && child !== null ? xliffElements(child as XmlNode, inner) : child;
      const before = out[key];
      if (before === undefined) out[key] = REPEATED.has(key) ? [read] : read;
      else if (Array.isArray(before)) before.push(read);
      else out[key] = [before, read];
    }
  }
  return out;
}

/** An element's text; inline markup (<g>, <ph>, ...) is refused: pimctl's texts are plain. */
export function textOf(v: unknown, where: string): string {
  if (v === undefined) return "";
  if (typeof v === "string") return v;
  const node = v as XmlNode;
  const inline = Object.keys(node).filter((k) => !k.startsWith("@") && k !== "#text");
  if (inline.length) throw new PimctlError("invalid_value", `${where} holds inline markup (<${inline[0]}>); pimctl's texts are plain text: write it as text`);
  return typeof node["#text"] === "string" ? node["#text"] : "";
}

/** Comments and CDATA (no references inside), unit start tags (whose id messages name), character references, characters XML does not allow. */
const TOKENS = new RegExp(
  [
    /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/.source,
    /<(?:[\w.-]+:)?(?:trans-unit|unit)(?:\s[^>]*)?>/.source,
    /&#(x[0-9a-fA-F]+|[0-9]+);/.source,
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.source,
  ].join("|"),
  "g",
);

/** The name of the unit a start tag opens, for messages: its resname, name or id as written. */
function unitLabel(tag: string): string {
  const attr = (a: string) => new RegExp(`\\s${a}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  const m = attr("resname") ?? attr("name") ?? attr("id");
  const raw = m ? (m[1] ?? m[2] ?? "") : "";
  return raw
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/**
 * Character references must name characters XML allows (a parser would otherwise drop
 * `&#x0;` and `&#xD800;`, keep `&#x110000;` as written and decode `&#xFFFE;`), and so must
 * the characters themselves: each one that does not is an error naming the line, the unit
 * and the code point.
 */
export function checkXmlCharacters(text: string, name: string): void {
  const errors: PimctlError[] = [];
  let unit = "";
  for (const m of text.matchAll(TOKENS)) {
    const token = m[0];
    if (token.startsWith("<!")) continue;
    if (token.startsWith("<")) {
      unit = unitLabel(token);
      continue;
    }
    const cp = m[1] === undefined ? token.codePointAt(0)! : parseInt(m[1].startsWith("x") ? m[1].slice(1) : m[1], m[1].startsWith("x") ? 16 : 10);
    if (m[1] !== undefined && isXmlChar(cp)) continue;
    const line = text.slice(0, m.index).split("\n").length;
    const what =
      m[1] === undefined
        ? `the character ${codePoint(cp)}`
        : `the character reference ${token}${cp > 0x10ffff ? " (past U+10FFFF, no Unicode character)" : `, ${codePoint(cp)},`}`;
    errors.push(
      new PimctlError(
        "invalid_value",
        `${name}:${line}: ${unit ? `unit ${unit}: ` : ""}${what} is not a character XML allows (XML 1.0, Char); remove it, or write the character meant`,
      ),
    );
  }
  if (errors.length) throw new PimctlErrors(errors);
}
