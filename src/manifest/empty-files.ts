/**
 * A manifest file that declares nothing: empty, only comments (the editor's schema line alone), a
 * document of nothing (`---`, `{}`), or extension keys only (anchors, which do not reach other
 * files). It is valid YAML, so it loaded without a word; but it is what a file emptied by mistake,
 * or cut short at a line boundary, looks like, and pruning would delete whatever it held. So it is
 * a warning naming the file, and plans that delete are refused while it is there
 * (src/plan/empty-files.ts). A kind written with no entries (`brands: []`) is a declaration: no
 * brands, on purpose.
 */
import { KINDS } from "../model/catalogue.js";
import { PimctlError } from "../errors.js";

export function declaresNothing(data: Record<string, unknown>): boolean {
  return !KINDS.some((kind) => kind in data);
}

/** The warning validate (and every load) gives, at the file's first line. */
export function emptyFileWarning(file: string): PimctlError {
  return new PimctlError("empty_file", "this file declares nothing (it is empty, or holds only comments)", {
    location: { file, line: 1, column: 1 },
    details: [
      "a file emptied by mistake, or cut short at a line, looks like this: a plan that deletes anything is refused while it is here " +
        "(plan --allow-empty-files plans the deletes anyway)",
      "restore its entries, or remove the file if it is meant to declare nothing",
    ],
  });
}
