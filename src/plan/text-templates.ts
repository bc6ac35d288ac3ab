/**
 * Texts as templates. Translators work on the manifests' texts with every `${variable}`
 * reference kept (docs/translations.md, Variables): status, export and the lock file see
 * `Sold by ${shop}`, whatever the tenant. A plan sees what the tenant holds, the template
 * filled in with the tenant's values at the time. Whether a tenant's text is an instance of
 * a template tells the plan's coverage whether a change is the template's (a text changed)
 * or only a variable's value (the same text, for translators).
 */
import type { TranslatableText } from "./texts.js";

/** The manifests' texts as templates, and the variable names a `${name}` in them may refer to. */
export interface TextTemplates {
  texts: readonly TranslatableText[];
  variables: ReadonlySet<string>;
}

const REFERENCE = /\$\{([^}]*)\}/g;
const compiled = new Map<string, RegExp>();

/** Whether `text` is `template` with each reference to one of `variables` replaced by some value. */
export function isInstanceOf(template: string, text: unknown, variables: ReadonlySet<string>): boolean {
  if (typeof text !== "string") return false;
  const key = `${[...variables].sort().join(",")}\u0000${template}`;
  let pattern = compiled.get(key);
  if (!pattern) {
    let source = "";
    let at = 0;
    for (const m of template.matchAll(REFERENCE)) {
      if (!variables.has(m[1]!)) continue;
      source += escapeRegExp(template.slice(at, m.index)) + "([\\s\\S]*?)";
      at = m.index + m[0].length;
    }
    pattern = new RegExp(`^${source}${escapeRegExp(template.slice(at))}$`, "u");
    compiled.set(key, pattern);
  }
  return pattern.test(text);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
