/**
 * Where each part of a tenant's composed document is written (issue 35, overlays): a document
 * composed from a base file and an overlay answers `at(pointer)` as a parsed file does, with the
 * place in whichever file set that value. A composed pointer is mapped by its longest prefix that
 * was registered (an entry, or a field an overlay set) to a pointer in one of the parsed files, and
 * the rest of the pointer is appended there; what no prefix maps is the document's own file.
 */
import type { SourceLocation } from "../model/catalogue.js";
import type { ParsedYaml } from "./yaml.js";
import { pointer } from "./yaml.js";

export interface Origin {
  parsed: ParsedYaml;
  pointer: string;
}

export class ComposedPlaces implements ParsedYaml {
  readonly errors = [];
  private readonly origins = new Map<string, Origin>();

  /** `home`: the file this document comes from (a base file, or an overlay file for what it adds). */
  constructor(
    readonly data: unknown,
    private readonly home: ParsedYaml,
  ) {}

  /** What is at `composed` (a path in this document) was written at `original` in `parsed`. */
  map(composed: ReadonlyArray<string | number>, parsed: ParsedYaml, original: ReadonlyArray<string | number>): void {
    this.origins.set(pointer(composed), { parsed, pointer: pointer(original) });
  }

  at(ptr: string): SourceLocation {
    const hash = ptr.indexOf("#");
    const bare = hash < 0 ? ptr : ptr.slice(0, hash);
    const origin = this.origin(bare);
    return origin.parsed.at(`${origin.pointer}${hash < 0 ? "" : ptr.slice(hash)}`);
  }

  /** The file (as parsed) and the pointer in it that the value at `ptr` (a pointer in this document) was written at. */
  origin(ptr: string): Origin {
    for (let prefix = ptr; ; prefix = prefix.slice(0, prefix.lastIndexOf("/"))) {
      const origin = this.origins.get(prefix);
      if (origin) return { parsed: origin.parsed, pointer: `${origin.pointer}${ptr.slice(prefix.length)}` };
      if (prefix === "") return { parsed: this.home, pointer: ptr };
    }
  }

  atPath(path: ReadonlyArray<string | number>): SourceLocation {
    return this.at(pointer(path));
  }
}
