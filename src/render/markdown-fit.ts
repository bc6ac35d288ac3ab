/**
 * Fitting markdown into a size a host accepts (GitHub takes 65,536 characters in a comment or an issue
 * body): the cuts every long report shares. A cut falls between two whole parts or lines, never inside
 * one, so every fold and code block that opens closes; what is left out is counted by a line the
 * caller words (where the whole report is).
 */

/** The length of lines joined with newlines, one after each. */
const linesLength = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

/** As many whole parts as fit in `room` characters, in order, and how many were left out (the first that does not fit stops it: order is kept). */
export function wholeParts(parts: readonly string[], room: number): { kept: string[]; left: number } {
  const kept: string[] = [];
  let used = 0;
  for (const part of parts) {
    if (used + part.length > room) break;
    kept.push(part);
    used += part.length;
  }
  return { kept, left: parts.length - kept.length };
}

/**
 * Lines (a table's rows, a list's items) cut to fit `room` characters with a newline after each:
 * all of them when they fit, else as many as fit beside the line `more(left)` that says how many
 * more there are, which ends them. `counts[i]` is how many things line i stands for (a row that folds
 * five tenants is five): `left` is the sum over the lines left out, one each when not given.
 */
export function cutLines(lines: readonly string[], room: number, more: (left: number) => string, counts?: readonly number[]): string[] {
  if (linesLength(lines) <= room) return [...lines];
  const countOf = (i: number) => counts?.[i] ?? 1;
  let left = lines.reduce((n, _, i) => n + countOf(i), 0);
  const kept: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    if (used + line.length + 1 + more(left - countOf(i)).length + 1 > room) break;
    kept.push(line);
    used += line.length + 1;
    left -= countOf(i);
  }
  return [...kept, more(left)];
}

/** "`a`, `b`, `c`" or, past `max` names, "`a`, `b`, ... and 198 more": each name quoted by `quote` (escaped for where it goes). */
export function someNames(names: readonly string[], max: number, quote: (name: string) => string): string {
  const shown = names.slice(0, max).map(quote).join(", ");
  return names.length > max ? `${shown}, ... and ${names.length - max} more` : shown;
}
