/** A word as a POSIX shell reads it back unchanged: bare when it holds nothing the shell treats specially, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
