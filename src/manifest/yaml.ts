/**
 * YAML with source positions: parse a file, substitute ${variables}, and keep
 * a map from JSON pointer (/attributes/0/name) to file:line:column so every
 * later error can say where. Shared by manifests and the config file.
 */
import { LineCounter, isMap, isPair, isScalar, isSeq, parseDocument, type Node } from "yaml";
import { PimctlError, closeNames } from "../errors.js";
import type { SourceLocation } from "../model/catalogue.js";

export interface ParsedYaml {
  data: unknown;
  errors: PimctlError[];
  /** Where the value at a JSON pointer starts; `${pointer}#key` is where its key starts. */
  at(pointer: string): SourceLocation;
}

const VARIABLE = /\$\$\{|\$\{([^}]*)\}/g;

function escapeSegment(segment: string): string {
  return segment.includes("~") || segment.includes("/") ? segment.replace(/~/g, "~0").replace(/\//g, "~1") : segment;
}

export function pointer(parts: ReadonlyArray<string | number>): string {
  return parts.map((p) => `/${escapeSegment(String(p))}`).join("");
}

export function parseYaml(text: string, file: string, variables?: Record<string, string>): ParsedYaml {
  const lines = new LineCounter();
  const errors: PimctlError[] = [];
  const positions = new Map<string, number>();
  const loc = (offset: number): SourceLocation => {
    const p = lines.linePos(offset);
    return { file, line: p.line, column: p.col };
  };
  let doc;
  try {
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  } catch (e) {
    return { data: undefined, errors: [new PimctlError("yaml_syntax", `YAML could not be read: ${(e as Error).message}`, { location: { file, line: 1, column: 1 } })], at: () => ({ file, line: 1, column: 1 }) };
  }
  for (const e of doc.errors) {
    const message = e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    errors.push(new PimctlError("yaml_syntax", `YAML syntax: ${message}`, { location: loc(e.pos[0]) }));
  }
  const substitute = (value: string, offset: number): string =>
    value.replace(VARIABLE, (match, name: string | undefined) => {
      if (match === "$${") return "${";
      if (variables && name !== undefined && Object.hasOwn(variables, name)) return variables[name]!;
      const known = Object.keys(variables ?? {});
      const close = closeNames(name ?? "", known);
      errors.push(
        new PimctlError("undefined_variable", `variable \${${name}} is not defined${variables ? " for this tenant" : " (no tenant selected: pass --tenant)"}`, {
          location: loc(offset),
          details: [close.length ? `did you mean: ${close.map((c) => `\${${c}}`).join(", ")}?` : `define it under tenants.<name>.variables in pimctl.yaml${known.length ? ` (defined: ${known.join(", ")})` : ""}`, "write $${ for a literal ${"],
        }),
      );
      return match;
    });
  // Pointers are built incrementally: large manifests have hundreds of thousands of nodes.
  const walk = (node: Node | null | undefined, p: string): void => {
    if (!node) return;
    if (node.range) positions.set(p, node.range[0]);
    if (isScalar(node)) {
      if (typeof node.value === "string" && node.value.includes("${")) node.value = substitute(node.value, node.range?.[0] ?? 0);
      return;
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key as Node | null;
        if (isScalar(keyNode) && typeof keyNode.value === "string" && keyNode.value.includes("${")) {
          keyNode.value = substitute(keyNode.value, keyNode.range?.[0] ?? 0);
        }
        const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
        const child = `${p}/${escapeSegment(key)}`;
        if (keyNode?.range) positions.set(`${child}#key`, keyNode.range[0]);
        const value = pair.value as Node | null;
        if (value?.range) walk(value, child);
        else if (keyNode?.range) positions.set(child, keyNode.range[0]);
      }
      return;
    }
    if (isSeq(node)) node.items.forEach((item, i) => walk(item as Node, `${p}/${i}`));
  };
  walk(doc.contents as Node | null, "");
  let data: unknown;
  try {
    data = errors.length && doc.errors.length ? undefined : doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    errors.push(new PimctlError("yaml_syntax", `YAML could not be read: ${(e as Error).message}`, { location: { file, line: 1, column: 1 } }));
  }
  const at = (ptr: string): SourceLocation => {
    // The nearest enclosing node with a known position.
    let p = ptr;
    for (;;) {
      const off = positions.get(p);
      if (off !== undefined) return loc(off);
      if (p === "" || p.endsWith("#key")) {
        if (p.endsWith("#key")) {
          p = p.slice(0, -4);
          continue;
        }
        return { file, line: 1, column: 1 };
      }
      p = p.slice(0, p.lastIndexOf("/"));
    }
  };
  return { data, errors, at };
}
