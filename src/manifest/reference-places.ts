/**
 * A reference no manifest declares is found on the catalogue, which keeps one place per entry: a
 * place for every member of every list would cost the load more than the errors it serves, and
 * they are rare. So when there are some, the files they are in are parsed again, and each error
 * moves from its entry's first line to the member that names the record (the fifth name of a set's
 * attribute list, the key of a brand's attribute), as a person looks for it.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { PimctlError } from "../errors.js";
import type { SourceLocation } from "../model/catalogue.js";
import { decodeManifest } from "./encoding.js";
import { parseYaml, pointer, type ParsedYaml } from "./yaml.js";
import type { MemberPlace, ReferenceProblem } from "./references.js";

/**
 * The errors, each at its member's line where the file still reads as it did. File names are
 * as errors show them, relative to `opts.cwd` (the process's by default); `opts.variables` as the
 * load had them (keys may use them). `held`: documents already in memory by file name (a tenant's
 * composed documents, whose members may come from an overlay): looked up there, not parsed again.
 */
export async function atMembers(
  problems: readonly ReferenceProblem[],
  opts: { cwd?: string; variables?: Record<string, string> },
  held?: ReadonlyMap<string, ParsedYaml>,
): Promise<PimctlError[]> {
  const parsed = new Map<string, Promise<ParsedYaml | undefined>>();
  const parse = (shown: string): Promise<ParsedYaml | undefined> => {
    const kept = held?.get(shown);
    if (kept) return Promise.resolve(kept);
    let p = parsed.get(shown);
    if (!p) parsed.set(shown, (p = reparse(path.resolve(opts.cwd ?? process.cwd(), shown), shown, opts.variables)));
    return p;
  };
  return Promise.all(
    problems.map(async ({ error, member }) => {
      const doc = member && (await parse(member.entry.file));
      const at = doc && memberLocation(doc, member!);
      return at ? new PimctlError(error.code, error.message, { location: at, details: error.details }) : error;
    }),
  );
}

async function reparse(file: string, shown: string, variables?: Record<string, string>): Promise<ParsedYaml | undefined> {
  try {
    const read = decodeManifest(await readFile(file), shown);
    return "text" in read ? parseYaml(read.text, shown, variables) : undefined;
  } catch {
    return undefined; // gone since the load: the error stays at its entry
  }
}

function memberLocation(doc: ParsedYaml, member: MemberPlace): SourceLocation | undefined {
  const entry = entryPath(doc, member);
  if (!entry) return undefined;
  const at = doc.at(`${pointer([...entry, ...member.path])}${member.key ? "#key" : ""}`);
  // Through a merge key or an alias the member has no line of its own: the entry's is the place.
  return at.line === member.entry.line && at.column === member.entry.column ? undefined : at;
}

/** The path of the entry that starts where the error's entry starts (categories: searched through their children). */
function entryPath(doc: ParsedYaml, member: MemberPlace): Array<string | number> | undefined {
  const starts = (parts: Array<string | number>) => {
    const at = doc.atPath(parts);
    return at.line === member.entry.line && at.column === member.entry.column;
  };
  const walk = (list: unknown, parts: Array<string | number>): Array<string | number> | undefined => {
    if (!Array.isArray(list)) return undefined;
    for (let i = 0; i < list.length; i++) {
      const here = [...parts, i];
      if (starts(here)) return here;
      const children = member.kind === "categories" ? (list[i] as { children?: unknown } | null)?.children : undefined;
      const deeper = walk(children, [...here, "children"]);
      if (deeper) return deeper;
    }
    return undefined;
  };
  return walk((doc.data as Record<string, unknown> | null | undefined)?.[member.kind], [member.kind]);
}
