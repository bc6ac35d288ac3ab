/**
 * src/base/json-schema.ts: the schemas are the plain objects the builders write, key
 * order included (schemas/*.json are those objects printed), and a table of properties
 * that disagrees with its interface does not compile. The second half runs the real
 * TypeScript compiler on a small program with one mistake planted per line, and checks
 * that it reports an error on exactly those lines and nowhere else.
 */
import { describe, expect, it } from "vitest";
import { optional, required, schema } from "../../src/base/json-schema.js";
import { compileErrors, plantedLines, srcModule } from "../helpers/tsc.js";

interface Item {
  name: string;
  note?: string | null;
  count?: number;
  tags?: string[];
}

describe("JSON Schema builders", () => {
  it("write plain objects, keys in the order schemas/ prints them; required in table order, left out when empty", () => {
    const item = schema.object<Item>(
      {
        name: required(schema.string({ pattern: "\\S", description: "Name." })),
        note: optional(schema.typed(["string", "null"], { description: "Note." })),
        count: optional(schema.integer({ minimum: 0 })),
        tags: optional(schema.array(schema.string(), { uniqueItems: true })),
      },
      { additionalProperties: false, description: "An item." },
    );
    expect(JSON.stringify(item)).toBe(
      '{"type":"object","additionalProperties":false,"description":"An item.","properties":{' +
        '"name":{"type":"string","pattern":"\\\\S","description":"Name."},"note":{"type":["string","null"],"description":"Note."},' +
        '"count":{"type":"integer","minimum":0},"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}},"required":["name"]}',
    );
    const loose = schema.object<{ a?: boolean }>({ a: optional(schema.boolean()) });
    expect(JSON.stringify(loose)).toBe('{"type":"object","properties":{"a":{"type":"boolean"}}}');
  });

  it("maps, enums and alternatives", () => {
    expect(JSON.stringify(schema.record(schema.integer(), { description: "d", propertyNames: { minLength: 1 } }))).toBe(
      '{"type":"object","description":"d","propertyNames":{"minLength":1},"additionalProperties":{"type":"integer"}}',
    );
    expect(JSON.stringify(schema.enum(["a", "b"] as const, { description: "d" }))).toBe('{"enum":["a","b"],"description":"d"}');
    expect(JSON.stringify(schema.oneOf(schema.string(), schema.array(schema.string())))).toBe(
      '{"oneOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]}',
    );
  });
});

/** One declaration per line; a line ending in "// planted" holds one mistake the compiler must refuse. */
const PROGRAM = (builders: string) => `import { optional, required, schema, type Properties, type Schema } from ${builders};
interface Item { name: string; note?: string | null; count?: number; tags?: string[] }
const name = required(schema.string());
const note = optional(schema.typed(["string", "null"]));
const count = optional(schema.integer());
const tags = optional(schema.array(schema.string()));
export const agrees = { name, note, count, tags } satisfies Properties<Item>;
export const asObject = schema.object<Item>({ name, note, count, tags });
export const keyLeftOut = { name, note, count } satisfies Properties<Item>; // planted
export const keyTooMany = { name, note, count, tags, extra: count } satisfies Properties<Item>; // planted
export const wrongType = { name, note, count: optional(schema.string()), tags } satisfies Properties<Item>; // planted
export const nullLost = { name, note: optional(schema.string()), count, tags } satisfies Properties<Item>; // planted
export const requiredLost = { name: optional(schema.string()), note, count, tags } satisfies Properties<Item>; // planted
export const optionalMadeRequired = { name, note, count: required(schema.integer()), tags } satisfies Properties<Item>; // planted
export const wrongItems = { name, note, count, tags: optional(schema.array(schema.integer())) } satisfies Properties<Item>; // planted
export const wrongObject = schema.object<Item>({ name, note, count }); // planted
export const wrongEnum: Schema<"a"> = schema.enum(["a", "b"] as const); // planted
`;

describe("a table of properties that disagrees with its interface does not compile", () => {
  it("the compiler reports each planted mistake on its line, and nothing else", { timeout: 60_000 }, async () => {
    const program = PROGRAM(srcModule("base/json-schema.ts"));
    const { lines, output } = await compileErrors(program);
    expect(plantedLines(program)).toHaveLength(9);
    expect(lines, output).toEqual(plantedLines(program));
  });
});
