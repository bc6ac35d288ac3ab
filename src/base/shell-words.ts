/** A word as a POSIX shell reads it back unchanged: bare when it holds nothing the shell treats specially, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An option of a command line: its value (a flag for true), or undefined / false to leave it out. */
export type CommandOption = readonly [name: string, value: string | number | boolean | undefined];

/**
 * A command line as a person types it, every word shell-quoted: `words` (the command and its
 * positionals), then each option given, in order, then `after` (positionals that read best last).
 */
export function commandLine(words: readonly string[], options: readonly CommandOption[], after: readonly string[] = []): string {
  const optionWords = options.flatMap(([name, value]) =>
    value === undefined || value === false ? [] : value === true ? [`--${name}`] : [`--${name}`, String(value)],
  );
  return [...words, ...optionWords, ...after].map(shellWord).join(" ");
}
