/**
 * XLIFF 1.2 and 2.0, written here (a few elements, escaped text, stable
 * order; read in xliff-read.ts). The `xliff` package was the first choice,
 * but it cannot write a target's state (1.2 `<target state>`, 2.0
 * `<segment state>`), which translators' tools and pimctl's import both need.
 *
 * 1.2: trans-unit id and resname (the resource's name, for tools that number
 * their units themselves) are the unit id (xs:string); state new | translated | needs-review-translation
 * on the target, and a translated unit is approved="yes": without it
 * translate-toolkit counts every translation fuzzy (pocount) and xliff2po marks
 * it `#, fuzzy`. Notes are from="developer", the notes xliff2po keeps (as `#.`).
 * 2.0: a unit id must be an NMTOKEN, which an address is not, so the id is
 * derived from the address ("u" and 16 hex digits of its sha256) and the
 * address is the unit's `name`, which import reads. Segment state (the XLIFF 2.0
 * core's `state`): initial, or final for a translated unit (the 2.0 counterpart of
 * 1.2's approved="yes": "finalized and ready to be used", as a translation in
 * the manifests is); an outdated one is initial with subState="pimctl:needs-review".
 * A text with a character XML cannot hold (U+0001, U+FFFE) is refused, never
 * written into a file no XML parser reads (xml-chars.ts).
 */
import { createHash } from "node:crypto";
import type { UnitFile } from "./units.js";
import { checkXmlWritable } from "./xml-chars.js";

const esc = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");

export const xliff2UnitId = (id: string): string => `u${createHash("sha256").update(id, "utf8").digest("hex").slice(0, 16)}`;

const STATE_12 = { new: "new", translated: "translated", "needs-review": "needs-review-translation" } as const;

export function writeXliff12(file: UnitFile): string {
  checkXmlWritable(file);
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">`,
    `  <file original="pimctl:${esc(file.version)}" datatype="plaintext" source-language="${esc(file.sourceLanguage)}" ` +
      `target-language="${esc(file.targetLanguage)}">`,
    `    <body>`,
  ];
  for (const u of file.units) {
    out.push(`      <trans-unit id="${esc(u.id)}" resname="${esc(u.id)}"${u.state === "translated" ? ` approved="yes"` : ""} xml:space="preserve">`);
    out.push(`        <source>${esc(u.source)}</source>`);
    out.push(`        <target state="${STATE_12[u.state]}">${esc(u.target)}</target>`);
    for (const n of u.notes) out.push(`        <note from="developer">${esc(n)}</note>`);
    out.push(`      </trans-unit>`);
  }
  out.push(`    </body>`, `  </file>`, `</xliff>`, "");
  return out.join("\n");
}

export function writeXliff2(file: UnitFile): string {
  checkXmlWritable(file);
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${esc(file.sourceLanguage)}" trgLang="${esc(file.targetLanguage)}">`,
    `  <file id="pimctl">`,
  ];
  for (const u of file.units) {
    out.push(`    <unit id="${xliff2UnitId(u.id)}" name="${esc(u.id)}">`);
    if (u.notes.length) out.push(`      <notes>`, ...u.notes.map((n) => `        <note category="pimctl">${esc(n)}</note>`), `      </notes>`);
    const state =
      u.state === "translated" ? `state="final"` : u.state === "needs-review" ? `state="initial" subState="pimctl:needs-review"` : `state="initial"`;
    out.push(`      <segment ${state}>`, `        <source xml:space="preserve">${esc(u.source)}</source>`);
    if (u.target !== "" || u.state !== "new") out.push(`        <target xml:space="preserve">${esc(u.target)}</target>`);
    out.push(`      </segment>`, `    </unit>`);
  }
  out.push(`  </file>`, `</xliff>`, "");
  return out.join("\n");
}
