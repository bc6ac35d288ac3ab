/**
 * Reading XLIFF 1.x and 2.x (told apart by the version attribute) as pimctl's units, from
 * pimctl's files and from what translators' tools make of them:
 * - the id: a 1.2 trans-unit's id, else its resname, else the `po-reference` context groups
 *   po2xliff writes from a PO's `#:` references (several when msguniq merged entries: one
 *   unit each); a 2.0 unit's name, else its id. The gettext header po2xliff adds is skipped.
 * - still marked for review (import leaves the unit out): 1.2, a translated target whose
 *   state is needs-* (needs-translation is po2xliff's `#, fuzzy`) unless the unit is
 *   approved="yes" (approving is how translate-toolkit clears fuzzy, leaving the state);
 *   2.0, a segment pimctl marked subState="pimctl:needs-review" whose state is still initial.
 * Elements are read by their XLIFF names whatever their prefix (xml-read.ts).
 */
import { XMLValidator } from "fast-xml-parser";
import { PimctlError, PimctlErrors } from "../../errors.js";
import { isUnitId } from "./unit-ids.js";
import type { ReadUnit } from "./units.js";
import { checkXmlCharacters, list, textOf, xliffElements, xmlParser, type XmlNode } from "./xml-read.js";

/** A unit whose id was not found, for the error that lists them all. */
type Unplaced = { unplaced: string };

const attr = (n: XmlNode, name: string): string => (typeof n[`@${name}`] === "string" ? (n[`@${name}`] as string) : "");

/** The unit ids of a 1.2 trans-unit: where pimctl wrote it (id, resname), else where po2xliff carried a `#:` reference. */
function transUnitIds(u: XmlNode): string[] {
  const own = [attr(u, "id"), attr(u, "resname")].find(isUnitId);
  if (own) return [own];
  const references = list(u["context-group"])
    .filter((g) => attr(g, "name") === "po-reference" || attr(g, "purpose") === "location")
    .map((g) => {
      const of = (type: string) => list(g.context).find((c) => attr(c, "context-type") === type);
      const line = textOf(of("linenumber"), "a po-reference's line number");
      // po2xliff splits a reference at its first ":" into a file name and a line number.
      return `${textOf(of("sourcefile"), "a po-reference's file name")}${line ? `:${line}` : ""}`;
    });
  return [...new Set(references.filter(isUnitId))];
}

function readTransUnit(u: XmlNode, name: string): ReadUnit[] | Unplaced {
  const label = attr(u, "resname") || attr(u, "id");
  const ids = transUnitIds(u);
  if (!ids.length) return { unplaced: label };
  const target = u.target as XmlNode | string | undefined;
  const text = textOf(target, `${name}: unit ${ids[0]}: <target>`);
  const state = typeof target === "object" ? attr(target, "state") : "";
  const needsReview = text !== "" && attr(u, "approved") !== "yes" && state.startsWith("needs-");
  const source = textOf(u.source, `${name}: unit ${ids[0]}: <source>`);
  return ids.map((id) => ({ id, source, target: text, needsReview }));
}

function readUnit2(u: XmlNode, name: string): ReadUnit[] | Unplaced {
  const id = [attr(u, "name"), attr(u, "id")].find(isUnitId);
  if (!id) return { unplaced: attr(u, "name") || attr(u, "id") };
  const segments = list(u.segment);
  const where = `${name}: unit ${id}`;
  return [
    {
      id,
      source: segments.map((s) => textOf(s.source, `${where}: <source>`)).join(""),
      target: segments.map((s) => textOf(s.target, `${where}: <target>`)).join(""),
      needsReview: segments.some((s) => attr(s, "subState") === "pimctl:needs-review" && (attr(s, "state") || "initial") === "initial"),
    },
  ];
}

/** A 1.x file's trans-units (in body and its groups) or a 2.x file's units (in file and its groups). */
function unitNodes(root: XmlNode, version: string): XmlNode[] {
  const groups = (n: XmlNode): XmlNode[] => [n, ...list(n.group).flatMap(groups)];
  if (version.startsWith("1."))
    return list(root.file)
      .flatMap((f) => list(f.body).flatMap(groups))
      .flatMap((g) => list(g["trans-unit"]))
      .filter((u) => attr(u, "restype") !== "x-gettext-domain-header");
  return list(root.file)
    .flatMap(groups)
    .flatMap((g) => list(g.unit));
}

/** The units of an XLIFF 1.x or 2.x file. */
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
  checkXmlCharacters(text, name);
  const root = xliffElements(xmlParser.parse(text) as XmlNode).xliff as XmlNode | undefined;
  if (!root) throw new PimctlError("invalid_value", `${name} has no <xliff> root element (in XLIFF's namespace)`);
  const version = attr(root, "version");
  if (!/^[12]\./.test(version)) throw new PimctlError("invalid_value", `${name}: XLIFF version "${version}" is not one pimctl reads (1.x or 2.x)`);
  const units: ReadUnit[] = [];
  const unplaced: string[] = [];
  for (const u of unitNodes(root, version)) {
    const read = version.startsWith("1.") ? readTransUnit(u, name) : readUnit2(u, name);
    if ("unplaced" in read) unplaced.push(read.unplaced);
    else units.push(...read);
  }
  if (unplaced.length) {
    const where = version.startsWith("1.") ? "id and resname; po2xliff keeps a PO's #: reference as a po-reference context group" : "name";
    const unplacedError = (label: string) =>
      new PimctlError(
        "invalid_value",
        `${name}: unit ${JSON.stringify(label)} carries no pimctl unit id (pimctl writes it as the unit's ${where}); ` +
          "export the file again, or keep the ids when converting it",
      );
    throw new PimctlErrors(unplaced.map(unplacedError));
  }
  return units;
}
