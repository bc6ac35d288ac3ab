/**
 * Durations as people type them in options and environment variables: "5m", "30s", "1h",
 * "500ms", or a bare number of seconds. Each caller says in its own words (an option, a
 * variable) what was wrong; the example of what to type is the same everywhere.
 */

/** Milliseconds, or undefined when `text` is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? "s") as "ms" | "s" | "m" | "h"]);
}

/** The message for text that is not a duration. */
export function notADuration(text: string): string {
  return `invalid duration "${text}": use e.g. 30s, 5m or 1h`;
}
