/**
 * XLIFF 1.2 and 2.0. Written here (a few elements, escaped text, stable
 * order); read with fast-xml-parser. The `xliff` package was the first
 * choice, but it cannot write a target's state (1.2 `<target state>`, 2.0
 * `<segment state>`), which translators' tools and pimctl's import both need.
 *
 * 1.2: trans-unit id is the unit id (xs:string); state new | translated |
 * needs-review-translation on the target. 2.0: a unit id must be an NMTOKEN,
 * which an address is not, so the id is derived from the address ("u" and 16
 * hex digits of its sha256) and the address is the unit's `name`, which
 * import reads; state initial | translated, an outdated one with
 * subState="pimctl:needs-review".
 */
import { createHash } from "node:crypto";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { PimctlError } from "../../errors.js";
import type { ReadUnit, UnitFile } from "./units.js";

const esc = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");

export const xliff2UnitId = (id: string): string => `u${createHash("sha256").update(id, "utf8").digest("hex").slice(0, 16)}`;

const STATE_12 = { new: "new", translated: "translated", "needs-review": "needs-review-translation" } as const;

export function writeXliff12(file: UnitFile): string {
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">`,
    `  <file original="pimctl:${esc(file.version)}" datatype="plaintext" source-language="${esc(file.sourceLanguage)}" ` +
      `target-language="${esc(file.targetLanguage)}">`,
    `    <body>`,
  ];
  for (const u of file.units) {
    out.push(`      <trans-unit id="${esc(u.id)}" xml:space="preserve">`);
    out.push(`        <source>${esc(u.source)}</source>`);
    out.push(`        <target state="${STATE_12[u.state]}">${esc(u.target)}</target>`);
    for (const n of u.notes) out.push(`        <note from="pimctl">${esc(n)}</note>`);
    out.push(`      </trans-unit>`);
  }
  out.push(`    </body>`, `  </file>`, `</xliff>`, "");
  return out.join("\n");
}

export function writeXliff2(file: UnitFile): string {
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${esc(file.sourceLanguage)}" trgLang="${esc(file.targetLanguage)}">`,
    `  <file id="pimctl">`,
  ];
  for (const u of file.units) {
    out.push(`    <unit id="${xliff2UnitId(u.id)}" name="${esc(u.id)}">`);
    if (u.notes.length) out.push(`      <notes>`, ...u.notes.map((n) => `        <note category="pimctl">${esc(n)}</note>`), `      </notes>`);
    const state =
      u.state === "translated" ? `state="translated"` : u.state === "needs-review" ? `state="initial" subState="pimctl:needs-review"` : `state="initial"`;
    out.push(`      <segment ${state}>`, `        <source xml:space="preserve">${esc(u.source)}</source>`);
    if (u.target !== "" || u.state !== "new") out.push(`        <target xml:space="preserve">${esc(u.target)}</target>`);
    out.push(`      </segment>`, `    </unit>`);
  }
  out.push(`  </file>`, `</xliff>`, "");
  return out.join("\n");
}

type XmlNode = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  // Character references (&#13; for a carriage return) are decoded only with the HTML entity set on.
  htmlEntities: true,
  trimValues: false,
  isArray: (name) => ["file", "group", "trans-unit", "unit", "segment", "note"].includes(name),
});

const list = (v: unknown): XmlNode[] => (Array.isArray(v) ? (v as XmlNode[]) : v === undefined ? [] : [v as XmlNode]);

/** An element's text; inline markup (<g>, <ph>, ...) is refused: pimctl's texts are plain. */
function textOf(v: unknown, where: string): string {
  if (v === undefined) return "";
  if (typeof v === "string") return v;
  const node = v as XmlNode;
  const inline = Object.keys(node).filter((k) => !k.startsWith("@") && k !== "#text");
  if (inline.length) throw new PimctlError("invalid_value", `${where} holds inline markup (<${inline[0]}>); pimctl's texts are plain text: write it as text`);
  return typeof node["#text"] === "string" ? node["#text"] : "";
}

/** The units of an XLIFF 1.2 or 2.0 file (by its version attribute). */
export function readXliff(text: string, name: string): ReadUnit[] {
  // A document type declaration can define entities (an entity bomb, an external entity): XLIFF
  // needs none, so a file with one is refused before any parser reads it.
  if (/<!DOCTYPE/i.test(text))
    throw new PimctlError(
      "invalid_value",
      `${name} has a document type declaration (<!DOCTYPE ...>); XLIFF needs none and pimctl reads no file with one (entities are never expanded): remove it`,
    );
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new PimctlError("invalid_value", `${name} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const root = (parser.parse(text) as XmlNode).xliff as XmlNode | undefined;
  if (!root) throw new PimctlError("invalid_value", `${name} has no <xliff> root element`);
  const version = String(root["@version"] ?? "");
  const units: ReadUnit[] = [];
  const groups = (n: XmlNode): XmlNode[] => [n, ...list(n.group).flatMap(groups)];
  if (version.startsWith("1.")) {
    for (const f of list(root.file)) {
      for (const g of groups((f.body as XmlNode | undefined) ?? {})) {
        for (const u of list(g["trans-unit"])) {
          const id = String(u["@id"] ?? "");
          const target = u.target as XmlNode | string | undefined;
          const state = typeof target === "object" ? String(target["@state"] ?? "") : "";
          units.push({
            id,
            source: textOf(u.source, `${name}: unit ${id}: <source>`),
            target: textOf(target, `${name}: unit ${id}: <target>`),
            needsReview: state.startsWith("needs-review"),
          });
        }
      }
    }
  } else if (version.startsWith("2.")) {
    for (const f of list(root.file)) {
      for (const g of groups(f)) {
        for (const u of list(g.unit)) {
          const id = String(u["@name"] ?? u["@id"] ?? "");
          const segments = list(u.segment);
          const where = `${name}: unit ${id}`;
          units.push({
            id,
            source: segments.map((s) => textOf(s.source, `${where}: <source>`)).join(""),
            target: segments.map((s) => textOf(s.target, `${where}: <target>`)).join(""),
            needsReview: segments.some((s) => String(s["@subState"] ?? "") === "pimctl:needs-review"),
          });
        }
      }
    }
  } else {
    throw new PimctlError("invalid_value", `${name}: XLIFF version "${version}" is not one pimctl reads (1.2 or 2.0)`);
  }
  return units;
}
