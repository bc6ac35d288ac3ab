/**
 * Where a unit's id travels when translators' tools rewrite a file, and how it is found
 * again. pimctl writes the id where each format keeps an identifier (PO msgctxt, XLIFF 1.2
 * trans-unit id, XLIFF 2.0 unit name) and also where the converters carry one on:
 * a PO `#:` reference (xliff2po writes a trans-unit's id there, po2xliff turns it into a
 * `po-reference` context group) and the XLIFF 1.2 `resname`. A reader takes the first
 * candidate that is a unit id: a text's address with a version (src/plan/texts.ts).
 */
import { parseAddress } from "../../plan/address.js";

/** Whether the text is an address with a version segment: what every pimctl unit id is. */
export function isUnitId(text: string): boolean {
  return parseAddress(text)?.segments.some((s) => s.type === "version") ?? false;
}

/** The characters a `#:` reference keeps as they are: translate-toolkit's (quote_plus with safe "[]()/:,@"). */
const REFERENCE_SAFE = /[A-Za-z0-9_.\-~[\]()/:,@]/;

/**
 * A unit id as a PO `#:` reference: no white space (gettext splits references on it), in
 * translate-toolkit's encoding (space as `+`, other bytes as %XX), which its converters
 * decode again, so `xliff2po` writes a pimctl XLIFF's ids exactly as pimctl's PO does.
 */
export function poReference(id: string): string {
  let out = "";
  for (const ch of id) {
    if (REFERENCE_SAFE.test(ch)) out += ch;
    else if (ch === " ") out += "+";
    else for (const byte of Buffer.from(ch, "utf8")) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A `#:` reference decoded as translate-toolkit decodes it (`+` a space, %XX bytes of UTF-8); undecodable ones as written. */
function decodeReference(reference: string): string {
  try {
    return decodeURIComponent(reference.replace(/\+/g, " "));
  } catch {
    return reference;
  }
}

/** The unit ids among a PO entry's `#:` references (as gettext-parser gives them: lines of space-separated references). */
export function referenceIds(references: string | undefined): string[] {
  const ids = (references ?? "").split(/\s+/).filter(Boolean).map(decodeReference).filter(isUnitId);
  return [...new Set(ids)];
}
