/**
 * YAML with source positions: parse a file, substitute ${variables}, and keep
 * a map from JSON pointer (/attributes/0/name) to file:line:column so every
 * later error can say where. Shared by manifests and the config file.
 */
import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit, type Document, type Node } from "yaml";
import { PimctlError, closeNames } from "../errors.js";
import type { SourceLocation } from "../model/catalogue.js";
import { parseFastYaml, type FastResult } from "./fast-yaml.js";

export interface ParsedYaml {
  data: unknown;
  errors: PimctlError[];
  /** Where the value at a JSON pointer starts; `${pointer}#key` is where its key starts. */
  at(pointer: string): SourceLocation;
  /** The same for a path of keys and indexes. */
  atPath(path: ReadonlyArray<string | number>): SourceLocation;
  /** The fast parser's result, when the text took the fast path (its offsets are what an editor needs). */
  fast?: FastResult;
}

const VARIABLE = /\$\$\{|\$\{([^}]*)\}/g;

export function escapeSegment(segment: string): string {
  return segment.includes("~") || segment.includes("/") ? segment.replace(/~/g, "~0").replace(/\//g, "~1") : segment;
}

export function pointer(parts: ReadonlyArray<string | number>): string {
  return parts.map((p) => `/${escapeSegment(String(p))}`).join("");
}

/** 1-based line and column of an offset, by binary search over line starts. */
function lineIndex(text: string): (offset: number) => { line: number; col: number } {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo]! + 1 };
  };
}

export function parseYaml(text: string, file: string, variables?: Record<string, string>, opts: { fast?: boolean } = {}): ParsedYaml {
  const errors: PimctlError[] = [];
  const linePos = lineIndex(text);
  const loc = (offset: number): SourceLocation => {
    const p = linePos(offset);
    return { file, line: p.line, column: p.col };
  };
  const substituteOrReport = variableSubstitution(variables, errors, loc);
  const substitute = (value: string, offset: number): string => substituteOrReport(value, offset, true);
  // The plain YAML manifests are made of takes the fast path; anything else the full parser.
  const fast = opts.fast === false ? undefined : parseFastYaml(text, substitute, (value, offset) => substituteOrReport(value, offset, false));
  if (fast) return { data: fast.data, errors, fast, at: (ptr) => loc(fast.offset(ptr) ?? 0), atPath: (path) => loc(fast.offsetOf(path) ?? 0) };
  errors.length = 0;
  const lines = new LineCounter();
  let doc;
  try {
    // merge: YAML merge keys (<<: *defaults) are common in real manifests.
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true, merge: true });
  } catch (e) {
    const first = { file, line: 1, column: 1 };
    return {
      data: undefined,
      errors: [new PimctlError("yaml_syntax", `YAML could not be read: ${(e as Error).message}`, { location: first })],
      at: () => first,
      atPath: () => first,
    };
  }
  errors.push(...syntaxErrors(doc, text, (offset) => linePos(offset).line, loc));
  // Variables are substituted in place, in keys too; files without "${" skip the walk.
  if (text.includes("${")) substituteAll(doc.contents as Node | null, substitute);
  let data: unknown;
  try {
    data = errors.length && doc.errors.length ? undefined : doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // An alias to no anchor is the one error toJS finds that has a place in the file: say where.
    errors.push(unresolvedAlias(doc, loc) ?? new PimctlError("yaml_syntax", `YAML could not be read: ${(e as Error).message}`, { location: loc(0) }));
  }
  // Positions are looked up when an error or a source needs one: walking every node up front
  // costs more than the parse itself on large manifests.
  const at = (ptr: string): SourceLocation => loc(offsetOf(doc, ptr));
  return { data, errors, at, atPath: (path) => at(pointer(path)) };
}

/**
 * Replaces each ${name} with the tenant's variable (and $${ with a literal ${); when `report`, an
 * undefined variable is an error at its place, with the names it may have meant.
 */
function variableSubstitution(
  variables: Record<string, string> | undefined,
  errors: PimctlError[],
  loc: (offset: number) => SourceLocation,
): (value: string, offset: number, report: boolean) => string {
  return (value, offset, report) =>
    value.replace(VARIABLE, (match, name: string | undefined) => {
      if (match === "$${") return "${";
      if (variables && name !== undefined && Object.hasOwn(variables, name)) return variables[name]!;
      if (!report) return match;
      const known = Object.keys(variables ?? {});
      const close = closeNames(name ?? "", known);
      errors.push(
        new PimctlError("undefined_variable", `variable \${${name}} is not defined${variables ? " for this tenant" : " (no tenant selected: pass --tenant)"}`, {
          location: loc(offset),
          details: [
            close.length
              ? `did you mean: ${close.map((c) => `\${${c}}`).join(", ")}?`
              : `define it under tenants.<name>.variables in pimctl.yaml${known.length ? ` (defined: ${known.join(", ")})` : ""}`,
            "write $${ for a literal ${",
          ],
        }),
      );
      return match;
    });
}

/** The parser's errors as a person reads them: one per line, several documents named as such, where a quote opens, indentation hints. */
function syntaxErrors(doc: Document, text: string, lineOf: (offset: number) => number, loc: (offset: number) => SourceLocation): PimctlError[] {
  const errors: PimctlError[] = [];
  let lastLine = 0;
  for (const e of doc.errors) {
    // One indentation mistake makes the parser report several errors on one line: the first says it.
    const line = lineOf(e.pos[0]);
    if (line === lastLine && e.code !== "MULTIPLE_DOCS") continue;
    lastLine = line;
    if (e.code === "MULTIPLE_DOCS") {
      errors.push(
        new PimctlError(
          "yaml_syntax",
          "this file holds several YAML documents (a '---' line); pimctl reads one document per file: put each document in a file of its own",
          {
            location: loc(e.pos[0]),
          },
        ),
      );
      continue;
    }
    const message = e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    // The parser reports an unterminated quote where the file ends; say where the quote opens.
    const open = e.code === "MISSING_CHAR" && /quote/.test(message) ? unclosedQuote(text) : undefined;
    errors.push(
      new PimctlError("yaml_syntax", open === undefined ? `YAML syntax: ${message}` : `YAML syntax: this quoted string is never closed`, {
        location: loc(open ?? e.pos[0]),
        ...(INDENTATION_ERRORS.has(e.code) ? { details: [indentationHint(text, line)] } : {}),
        // A key indented less than its entry's other keys (one space short): the parser sees a list item without its dash.
        ...(e.code === "MISSING_CHAR" && /^Sequence item without - indicator/.test(message) ? { details: [shortIndentHint(text, line)] } : {}),
      }),
    );
  }
  return errors;
}

/** Variables substituted in place, in keys and values. */
function substituteAll(node: Node | null | undefined, substitute: (value: string, offset: number) => string): void {
  if (!node) return;
  if (isScalar(node)) {
    if (typeof node.value === "string" && node.value.includes("${")) node.value = substitute(node.value, node.range?.[0] ?? 0);
  } else if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      substituteAll(pair.key as Node | null, substitute);
      substituteAll(pair.value as Node | null, substitute);
    }
  } else if (isSeq(node)) for (const item of node.items) substituteAll(item as Node, substitute);
}

/** Where the value at a JSON pointer starts (`#key`: where its key starts), or the nearest place above it the document has. */
function offsetOf(doc: Document, ptr: string): number {
  const wantKey = ptr.endsWith("#key");
  const p = wantKey ? ptr.slice(0, -4) : ptr;
  const segments =
    p === ""
      ? []
      : p
          .slice(1)
          .split("/")
          .map((x) => x.replace(/~1/g, "/").replace(/~0/g, "~"));
  let node = doc?.contents as Node | null | undefined;
  let best = node?.range ? node.range[0] : 0;
  for (let i = 0; i < segments.length && node; i++) {
    const segment = segments[i]!;
    if (isMap(node)) {
      const pair = node.items.find((it) => isPair(it) && String(isScalar(it.key) ? it.key.value : it.key) === segment);
      if (!pair) break;
      const keyNode = pair.key as Node | null;
      const value = pair.value as Node | null;
      if (keyNode?.range) best = keyNode.range[0];
      if (i === segments.length - 1 && wantKey) break;
      node = value;
      if (value?.range) best = value.range[0];
      else break;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as Node | undefined;
      if (!item?.range) break;
      node = item;
      best = item.range[0];
    } else break;
  }
  return best;
}

/** The first alias (`*name`) with no anchor (`&name`) above it, as an error at the alias, with the anchors defined there. */
function unresolvedAlias(doc: Document, loc: (offset: number) => SourceLocation): PimctlError | undefined {
  let found: PimctlError | undefined;
  const anchors: string[] = [];
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        if (node.resolve(doc) !== undefined) return undefined;
        const close = closeNames(node.source, anchors, 1);
        found = new PimctlError("yaml_syntax", `YAML: the alias *${node.source} names no anchor (&${node.source}) defined above it`, {
          location: loc(node.range?.[0] ?? 0),
          details: [
            close.length ? `did you mean *${close[0]}?` : "an alias repeats a value marked &name earlier in the same file; anchors do not reach across files",
          ],
        });
        return visit.BREAK;
      }
      if (node.anchor) anchors.push(node.anchor);
      return undefined;
    },
  });
  return found;
}

/** The yaml library's error codes that mean, in a hand-written manifest, a line indented wrongly. */
const INDENTATION_ERRORS = new Set<string>(["BAD_INDENT", "MULTILINE_IMPLICIT_KEY", "BLOCK_AS_IMPLICIT_KEY", "TAB_AS_INDENT"]);

/**
 * What to look at for an indentation error: the parser reports it where the
 * entry it cannot close starts, and the mistake is usually on the next line.
 */
/** For a key indented less than the keys of the entry above it. */
function shortIndentHint(text: string, line: number): string {
  const lines = text.split("\n");
  const indentOf = (l: string) => l.length - l.trimStart().length;
  const here = lines[line - 1] ?? "";
  let prev = line - 2;
  while (prev >= 0 && (lines[prev]!.trim() === "" || lines[prev]!.trimStart().startsWith("#"))) prev--;
  const above = prev >= 0 ? lines[prev]! : "";
  const keyColumn = /^\s*- /.test(above) ? above.indexOf("- ") + 2 : indentOf(above);
  if (prev >= 0 && indentOf(here) < keyColumn) {
    return (
      `an indentation mistake: line ${line} is indented ${indentOf(here)} spaces, but the keys of the entry above it start at column ` +
      `${keyColumn + 1} (${keyColumn} spaces); keys of one entry line up`
    );
  }
  return indentationHint(text, line);
}

function indentationHint(text: string, line: number): string {
  const lines = text.split("\n");
  const indentOf = (l: string) => l.length - l.trimStart().length;
  const here = lines[line - 1] ?? "";
  // The column a key of this entry starts at ("  - name: x": after the dash).
  const keyColumn = /^\s*- /.test(here) ? here.indexOf("- ") + 2 : indentOf(here);
  const nextIndex = lines.findIndex((l, i) => i >= line && l.trim() !== "" && !l.trimStart().startsWith("#"));
  const next = nextIndex === -1 ? undefined : lines[nextIndex]!;
  const tabs = /^\s*\t/.test(here) || (next !== undefined && /^\s*\t/.test(next));
  if (tabs) return "indent with spaces: YAML does not allow tabs as indentation";
  if (next !== undefined && indentOf(next) !== keyColumn && !next.trimStart().startsWith("- ")) {
    return (
      `an indentation mistake: line ${nextIndex + 1} is indented ${indentOf(next)} spaces, but the keys of this entry start at column ` +
      `${keyColumn + 1} (${keyColumn} spaces); keys of one entry line up, and a value that goes on over several lines is quoted`
    );
  }
  return (
    "an indentation mistake near here: keys of one entry start in the same column (spaces, not tabs), and a value that goes on over several " +
    "lines is quoted"
  );
}

/**
 * Offset of the quote that opens a quoted scalar never closed, or undefined.
 * A small scanner: quotes count only where a scalar can start, comments are skipped.
 */
export function unclosedQuote(text: string): number | undefined {
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const prev = i === 0 ? "\n" : text[i - 1]!;
    if (ch === "#" && /\s/.test(prev)) {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl + 1;
      continue;
    }
    if ((ch === '"' || ch === "'") && /[\s:\-[{,]/.test(prev)) {
      let j = i + 1;
      for (; j < text.length; j++) {
        if (ch === '"' && text[j] === "\\") j++;
        else if (ch === "'" && text[j] === "'" && text[j + 1] === "'") j++;
        else if (text[j] === ch) break;
      }
      if (j >= text.length) return i;
      i = j + 1;
      continue;
    }
    i++;
  }
  return undefined;
}
