/** The characters XML 1.0 can hold (its Char production), for the XLIFF writers and reader. */
import { PimctlError, PimctlErrors } from "../../errors.js";
import type { UnitFile } from "./units.js";

export const isXmlChar = (cp: number): boolean =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

export const codePoint = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

/** C0 controls but tab and line ends, U+FFFE, U+FFFF and lone surrogates: what no XML document holds, not even as a reference. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Every unit's texts can be written as XML, or an error per text naming the unit and the
 * code point: a file with such a character is no XML (no translator's tool opens it, and
 * pimctl's own import refuses it). PO and CSV carry them.
 */
export function checkXmlWritable(file: UnitFile): void {
  const errors: PimctlError[] = [];
  for (const u of file.units) {
    const texts: Array<[string, string]> = [
      ["id", u.id],
      ["master text", u.source],
      ["translation", u.target],
      ...u.notes.map((n): [string, string] => ["note", n]),
    ];
    for (const [what, text] of texts) {
      const bad = NOT_XML.exec(text)?.[0].codePointAt(0);
      if (bad === undefined) continue;
      errors.push(
        new PimctlError(
          "invalid_value",
          `unit ${u.id}: its ${what} holds ${codePoint(bad)}, which XML cannot carry (not even as a character reference); ` +
            "change the text, or export this version as po or csv",
        ),
      );
    }
  }
  if (errors.length) throw new PimctlErrors(errors);
}
