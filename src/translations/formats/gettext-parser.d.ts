/** The part of gettext-parser (which ships no types) that pimctl uses. */
declare module "gettext-parser" {
  export interface PoEntry {
    msgid: string;
    msgctxt?: string;
    msgid_plural?: string;
    msgstr: string[];
    comments?: { translator?: string; extracted?: string; reference?: string; flag?: string; previous?: string };
  }
  export interface PoData {
    charset: string;
    headers: Record<string, string>;
    translations: Record<string, Record<string, PoEntry>>;
  }
  export const po: {
    parse(input: string | Buffer, options?: { defaultCharset?: string; validation?: boolean }): PoData;
    compile(data: PoData, options?: { foldLength?: number; sort?: boolean }): Buffer;
  };
}
