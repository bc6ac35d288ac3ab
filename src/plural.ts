/** "1 category", "2 categories": counts in messages read as English. */
const IRREGULAR: Record<string, string> = { category: "categories", "destructive change": "destructive changes", "attribute value": "attribute values" };

export function plural(n: number, singular: string, pluralForm?: string): string {
  if (n === 1) return `${n} ${singular}`;
  const many =
    pluralForm ??
    IRREGULAR[singular] ??
    (/(s|x|ch|sh)$/.test(singular) ? `${singular}es` : /[^aeiou]y$/.test(singular) ? `${singular.slice(0, -1)}ies` : `${singular}s`);
  return `${n} ${many}`;
}
