/**
 * The TypeScript type of a value a JSON Schema accepts, derived from the schema object itself (declared `as const`):
 * the rules file is declared once, as its schema, and the shape the loader reads (`RawRules`) is this type of it,
 * so a key added to the schema is a key the loader sees, with no hand-written interface to keep in step.
 *
 * The subset of JSON Schema (draft-07) the rules use: `type` (one or several), `const`, `enum`, `oneOf`, `items`,
 * `properties` with `required`, and `additionalProperties` (false, or a schema for the values of a map). Keywords
 * that only narrow a value (`minimum`, `pattern`, `minLength`, ...) do not change its type.
 */
interface Simple {
  string: string
  number: number
  integer: number
  boolean: boolean
  null: null
}

/** How a block's parser refuses what its schema cannot: at a key path of the rules file, with what to do. */
export type Fail = (path: Array<string | number>, message: string, hint?: string) => never

/** The value type of schema `S`. */
export type SchemaType<S> = S extends { const: infer C }
  ? C
  : S extends { enum: ReadonlyArray<infer E> }
    ? E
    : S extends { oneOf: ReadonlyArray<infer O> }
      ? SchemaType<O>
      : S extends { type: 'object' }
        ? ObjectType<S>
        : S extends { type: 'array'; items: infer I }
          ? Array<SchemaType<I>>
          : S extends { type: ReadonlyArray<infer T> }
            ? Simple[T & keyof Simple]
            : S extends { type: infer T }
              ? T extends keyof Simple
                ? Simple[T]
                : unknown
              : unknown

type Flat<T> = { [K in keyof T]: T[K] }
type Required<S> = S extends { required: ReadonlyArray<infer R> } ? R : never
type Properties<P, R> = { -readonly [K in keyof P as K extends R ? K : never]: SchemaType<P[K]> } & {
  -readonly [K in keyof P as K extends R ? never : K]?: SchemaType<P[K]>
}
type Extra<S> = S extends { additionalProperties: false }
  ? unknown
  : S extends { additionalProperties: infer A }
    ? A extends object
      ? Record<string, SchemaType<A>>
      : unknown
    : unknown
type ObjectType<S> = S extends { properties: infer P }
  ? Flat<Properties<P, Required<S>> & Extra<S>>
  : Extra<S> extends Record<string, unknown>
    ? Extra<S>
    : Record<string, unknown>

/** `max_age_days` → `maxAgeDays`: a rules key's name in the typed rules. */
type CamelName<K> = K extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelName<T>>}` : K

/**
 * A rules block as the loader hands it on, derived from its schema `S`: every key camel-cased and present, a key the
 * file may leave out `undefined` there unless it has a default (`D`, its snake_case name). What each key means is
 * its schema's description.
 */
export type Camel<S, D extends string = never, T = SchemaType<S>> = {
  [K in keyof T & string as CamelName<K>]: K extends D
    ? Exclude<T[K], undefined>
    : object extends Pick<T, K>
      ? T[K] | undefined
      : T[K]
}

/**
 * The block `raw` (already validated against `schema`) as its {@link Camel} form: each key of the schema, in the
 * schema's order, renamed, with its default where the file leaves it out. For blocks whose typed form is a plain copy.
 */
export function camelCased<S extends { properties: object }, D extends keyof S['properties'] & string = never>(
  schema: S,
  raw: SchemaType<S>,
  defaults: { [K in D]: Exclude<SchemaType<S>[K & keyof SchemaType<S>], undefined> } = {} as never
): Camel<S, D> {
  const out: Record<string, unknown> = {}
  const from = raw as Record<string, unknown>
  const fallback = defaults as Record<string, unknown>
  for (const key of Object.keys(schema.properties))
    out[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = from[key] ?? fallback[key]
  return out as Camel<S, D>
}
