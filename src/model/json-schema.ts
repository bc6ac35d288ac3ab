/**
 * The few JSON Schema builders the field tables need, typed as TypeBox's
 * schema types so `Static<...>` derives the manifest's TypeScript types.
 * TypeBox is used for its types only: its runtime (some 200 modules) would
 * cost every command about 0.2 s of start-up to build seven plain objects.
 */
import type { TArray, TBoolean, TInteger, TObject, TOptional, TProperties, TSchema, TString, TUnsafe } from "@sinclair/typebox";

type Options = Record<string, unknown>;

/** Optional properties, by object identity: Optional() returns a fresh copy, so one schema can be required elsewhere. */
const optional = new WeakSet<object>();

export const Type = {
  String: (o: Options = {}): TString => ({ type: "string", ...o }) as unknown as TString,
  Integer: (o: Options = {}): TInteger => ({ type: "integer", ...o }) as unknown as TInteger,
  Boolean: (o: Options = {}): TBoolean => ({ type: "boolean", ...o }) as unknown as TBoolean,
  Array: <S extends TSchema>(items: S, o: Options = {}): TArray<S> => ({ type: "array", items, ...o }) as unknown as TArray<S>,
  /** Any JSON Schema, with the static type the caller states. */
  Unsafe: <T>(schema: Options): TUnsafe<T> => schema as unknown as TUnsafe<T>,
  Optional: <S extends TSchema>(schema: S): TOptional<S> => {
    const copy = { ...schema };
    optional.add(copy);
    return copy as TOptional<S>;
  },
  Object: <P extends TProperties>(properties: P, o: Options = {}): TObject<P> => {
    const required = Object.keys(properties).filter((k) => !optional.has(properties[k]!));
    return { type: "object", ...o, properties, ...(required.length ? { required } : {}) } as unknown as TObject<P>;
  },
};
