/**
 * JSON Schema (draft-07) as plain data, with the TypeScript type of the values a
 * schema accepts carried beside it for the compiler only. The builders below are
 * the one place that says a schema and a type agree, each in one line a reader
 * checks by eye (a `string` schema accepts strings); an object schema is then
 * built from a table of properties that the compiler checks against a plain
 * interface: a key the interface lacks, a key it has that the table lacks, a
 * required key made optional, or a schema of another type fails the typecheck.
 * No casts: the schemas are the objects written here, byte for byte.
 *
 * Why not TypeBox: its runtime (some 200 modules) costs a command about 0.2 s
 * of start-up to build these few objects, and using its types alone needed a
 * cast in every builder.
 */

/** A JSON Schema as data: what schemas/ publishes and ajv compiles. */
export interface JsonSchema {
  readonly [keyword: string]: unknown;
}

declare const accepts: unique symbol;

/**
 * A JSON Schema whose valid values are of type T. The symbol-keyed member is never
 * set: it exists for the compiler, and as a function of T it makes Schema<string>
 * and Schema<string | null> two types, neither assignable to the other.
 */
export interface Schema<T> extends JsonSchema {
  readonly [accepts]?: (value: T) => T;
}

/** Keywords added to a schema (description, pattern, minimum, ...). */
type Keywords = Record<string, unknown>;

/** The JSON Schema type names and the TypeScript types of their values. */
interface TypeNames {
  string: string;
  integer: number;
  boolean: boolean;
  null: null;
}

/** A property of an object schema: its schema, and whether the object must have it. */
interface RequiredProperty<T> {
  readonly schema: Schema<T>;
  readonly required: true;
}
interface OptionalProperty<T> {
  readonly schema: Schema<T>;
  readonly required?: false;
}

/** T's property K is optional when an object without it is still a T. */
type IsOptional<T, K extends keyof T> = object extends Pick<T, K> ? true : false;

/**
 * The properties of an object of type T, one per key of T: required exactly where T
 * requires it. A table may carry more per property (the field tables say how a field
 * is compared); only `schema` and `required` go into the object schema.
 */
export type Properties<T> = {
  readonly [K in keyof T]-?: IsOptional<T, K> extends true ? OptionalProperty<Exclude<T[K], undefined>> : RequiredProperty<T[K]>;
};

export const required = <T>(schema: Schema<T>): RequiredProperty<T> => ({ schema, required: true });
export const optional = <T>(schema: Schema<T>): OptionalProperty<T> => ({ schema });

/** A value of one of the named types: `typed(["string", "null"])` accepts a string or null. */
function typed<K extends keyof TypeNames>(type: K | readonly K[], keywords: Keywords = {}): Schema<TypeNames[K]> {
  return { type, ...keywords };
}

export const schema = {
  string: (keywords: Keywords = {}): Schema<string> => typed("string", keywords),
  integer: (keywords: Keywords = {}): Schema<number> => typed("integer", keywords),
  boolean: (keywords: Keywords = {}): Schema<boolean> => typed("boolean", keywords),
  typed,
  /** One of the listed strings. */
  enum: <const T extends readonly string[]>(values: T, keywords: Keywords = {}): Schema<T[number]> => ({ enum: [...values], ...keywords }),
  /** A value valid against exactly one of the two schemas. */
  oneOf: <A, B>(a: Schema<A>, b: Schema<B>, keywords: Keywords = {}): Schema<A | B> => ({ oneOf: [a, b], ...keywords }),
  array: <T>(items: Schema<T>, keywords: Keywords = {}): Schema<T[]> => ({ type: "array", items, ...keywords }),
  /** A mapping from names to values of one schema (keywords such as propertyNames constrain the names). */
  record: <T>(value: Schema<T>, keywords: Keywords = {}): Schema<Record<string, T>> => ({ type: "object", ...keywords, additionalProperties: value }),
  /** An object with the given properties; `required` lists those the table marks required, in table order. */
  object<T>(properties: Properties<T>, keywords: Keywords = {}): Schema<T> {
    const entries: Array<[string, RequiredProperty<unknown> | OptionalProperty<unknown>]> = Object.entries(properties);
    const names = entries.filter(([, p]) => p.required).map(([k]) => k);
    return {
      type: "object",
      ...keywords,
      properties: Object.fromEntries(entries.map(([k, p]) => [k, p.schema])),
      ...(names.length ? { required: names } : {}),
    };
  },
};
