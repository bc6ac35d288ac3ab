/**
 * --target / --exclude selectors: a kind (`brands`), an address
 * (`brand["Acme"]`, `attribute["Colour"].value["Red"]`) or an address with
 * globs inside the quotes (`brand["North*"]`, `category["Apparel & Accessories/**"]`:
 * `*` stays within one path segment, `**` crosses segments; `X/**` includes X).
 * A selector selects the records at or under what it matches. A selector that
 * matches nothing in the manifests or the tenant is an error with did-you-mean:
 * a typo must never narrow a plan to "No changes".
 */
import { KINDS, type Catalogue, type Kind } from "../model/catalogue.js";
import type { RemoteCatalogue } from "../model/remote.js";
import { PimctlError, PimctlErrors, closeNames } from "../errors.js";
import { ROOT_KIND, addr, addressKind } from "./address.js";

/** Address prefix (`brand`) -> manifest kind (`brands`). */
const PREFIX_KIND: Readonly<Record<string, Kind>> = ROOT_KIND;

export interface Selector {
  text: string;
  kind?: Kind;
  /** Matches an address at or under the selected record. */
  matches(address: string): boolean;
}

function globToRegex(text: string): RegExp {
  let re = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "*" && text[i + 1] === "*") {
      // "X/**" also selects X itself.
      if (re.endsWith("/")) re = `${re.slice(0, -1)}(?:/.*)?`;
      else re += ".*";
      i++;
    } else if (ch === "*") re += "[^/]*";
    else re += ch.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}(?:\\..*)?$`, "s");
}

/** Parse one selector; throws a usage error for an unknown kind. */
export function parseSelector(text: string): Selector {
  if ((KINDS as readonly string[]).includes(text)) {
    const kind = text as Kind;
    return { text, kind, matches: (a) => PREFIX_KIND[addressKind(a) ?? ""] === kind };
  }
  // The text before the first "[" (not the address parser: a typo'd kind must still be named).
  const prefix = text.split("[")[0]!;
  if (!text.includes("[") || !PREFIX_KIND[prefix]) {
    // Suggest only what the flag accepts: a kind (`categories`), or an address form
    // (`category["..."]`) when the text was meant as one; a bare prefix is neither.
    const close = closeNames(prefix, [...KINDS, ...Object.keys(PREFIX_KIND)], 2);
    const accepted = [
      ...new Set(close.map((c) => ((KINDS as readonly string[]).includes(c) ? c : text.includes("[") ? `${c}${text.slice(prefix.length)}` : PREFIX_KIND[c]!))),
    ];
    throw new PimctlError("usage", `"${text}" is neither a kind nor an address: unknown kind "${prefix}"`, {
      details: [
        accepted.length
          ? `did you mean: ${accepted.join(", ")}?`
          : `kinds: ${KINDS.join(", ")}; addresses look like brand["Acme"] or category["Apparel/Shirts"]`,
      ],
    });
  }
  if (text.includes("*")) {
    const re = globToRegex(text);
    return { text, kind: PREFIX_KIND[prefix]!, matches: (a) => re.test(a) };
  }
  return { text, kind: PREFIX_KIND[prefix]!, matches: (a) => a === text || a.startsWith(`${text}.`) };
}

/** Every record address the manifests or the tenant know, for checking selectors against. */
export function knownAddresses(desired: Catalogue, remote: RemoteCatalogue): Set<string> {
  const out = new Set<string>();
  for (const side of [desired, remote]) {
    for (const d of side.display_groups) out.add(addr.displayGroup(d.name));
    for (const a of side.attributes) {
      out.add(addr.attribute(a.name));
      for (const v of a.values ?? []) out.add(addr.typeValue(a.name, v.value));
    }
    for (const s of side.attribute_sets) out.add(addr.attributeSet(s.name));
    for (const b of side.blocks) out.add(addr.block(b.slug));
    for (const b of side.brands) out.add(addr.brand(b.name));
    for (const c of side.categories) out.add(addr.category(c.path));
  }
  return out;
}

/**
 * Parse and check every selector against the known addresses (and the plan's
 * own action addresses); all problems at once, each with close addresses.
 */
export function checkSelectors(texts: readonly string[], known: ReadonlySet<string>, flag: "--target" | "--exclude"): Selector[] {
  const errors: PimctlError[] = [];
  const selectors: Selector[] = [];
  for (const text of texts) {
    let s: Selector;
    try {
      s = parseSelector(text);
    } catch (e) {
      errors.push(e as PimctlError);
      continue;
    }
    selectors.push(s);
    if (s.kind && s.text === s.kind) continue; // a whole kind is always a valid choice
    if (someMatch(s, known)) continue;
    const close = closeNames(text, known, 3);
    errors.push(
      new PimctlError("usage", `${flag} ${text} matches nothing in the manifests or the tenant`, {
        details: [
          close.length
            ? `did you mean: ${close.join(", ")}?`
            : `addresses look like brand["Acme"], category["Apparel/Shirts"], attribute["Colour"].value["Red"]; globs: brand["North*"], category["Apparel/**"]`,
        ],
      }),
    );
  }
  if (errors.length) throw new PimctlErrors(errors);
  return selectors;
}

function someMatch(s: Selector, known: Iterable<string>): boolean {
  for (const a of known) if (s.matches(a)) return true;
  return false;
}
