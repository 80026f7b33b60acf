/**
 * How each engine `retrieval-gate sql` writes for (src/stats/warehouse-sql.ts) spells what standard SQL leaves open:
 * types, bit operations, md5, ranges and lists, non-finite tests, quoted names, and string literals. One table, so
 * a dialect is one entry; docs/scale.md, "Dialects", is its prose. The grammars and engines the tests hold these
 * to: DuckDB (run), Spark SQL (dt-sql-parser, and run on a local Spark), BigQuery (sql-parser-cst, and run in DuckDB
 * with BigQuery's functions mapped).
 */

/** The engines the SQL is written for. */
export type Dialect = 'duckdb' | 'spark' | 'bigquery'

/** The dialects, in the order `sql --help` lists them. */
export const DIALECT_NAMES: readonly Dialect[] = ['duckdb', 'spark', 'bigquery']

/** One engine's spellings. */
export interface DialectText {
  text: string
  double: string
  bigint: string
  xor(a: string, b: string): string
  shr(a: string, n: number): string
  /** The first or second 32-bit word of md5(s) as an unsigned integer (hex digits 1-8 or 9-16). */
  md5Word(s: string, word: 0 | 1): string
  /** A relation of one BIGINT column `name` holding 0 .. n - 1. */
  range(name: string, n: number): string
  /** A relation of one integer column `name` holding the listed integers. */
  list(name: string, items: number[]): string
  nonFinite(x: string): string
  /** A column name (one the caller checked holds no quote, backtick, backslash or control character). */
  quote(name: string): string
  /** A string literal whose value is exactly `text`, as this engine reads its literals. */
  literal(text: string): string
  materialized: string
}

/** Standard SQL, DuckDB and PostgreSQL: a quote is doubled, a backslash is itself, any other character is itself. */
function doubledQuotes(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}

/**
 * Spark SQL and BigQuery read a backslash in a string literal as the start of an escape (Spark: `\'`, `\\`, `\uXXXX`
 * and a few letters, its default spark.sql.parser.escapedStringLiterals=false; BigQuery: the same and more), so a
 * doubled quote is not a quote in every version (Spark 3 reads `'it''s'` as the two literals 'it' and 's',
 * concatenated) and a value ending in a backslash escapes the closing quote. Here a backslash and a quote are
 * escaped, and every control character is written as `\uXXXX` (BigQuery refuses a raw newline in a quoted string),
 * an escape both engines read.
 */
function backslashEscaped(text: string): string {
  const body = text.replace(/[\\'\u0000-\u001f\u007f]/g, (ch) =>
    ch === '\\' ? '\\\\' : ch === "'" ? "\\'" : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`
  )
  return `'${body}'`
}

export const DIALECTS: Record<Dialect, DialectText> = {
  duckdb: {
    text: 'VARCHAR',
    double: 'DOUBLE',
    bigint: 'BIGINT',
    xor: (a, b) => `xor(${a}, ${b})`,
    shr: (a, n) => `(${a} >> ${n})`,
    md5Word: (s, word) => `CAST(('0x' || substr(md5(${s}), ${1 + 8 * word}, 8)) AS BIGINT)`,
    range: (name, n) => `(SELECT range AS ${name} FROM range(0, ${n}))`,
    list: (name, items) => `(SELECT unnest([${items.join(', ')}]) AS ${name})`,
    nonFinite: (x) => `(isnan(${x}) OR isinf(${x}))`,
    quote: (name) => `"${name}"`,
    literal: doubledQuotes,
    materialized: 'MATERIALIZED '
  },
  spark: {
    text: 'STRING',
    double: 'DOUBLE',
    bigint: 'BIGINT',
    xor: (a, b) => `(${a} ^ ${b})`,
    shr: (a, n) => `shiftright(${a}, ${n})`,
    md5Word: (s, word) => `CAST(conv(substr(md5(${s}), ${1 + 8 * word}, 8), 16, 10) AS BIGINT)`,
    range: (name, n) => `(SELECT explode(sequence(0, ${n - 1})) AS ${name})`,
    list: (name, items) => `(SELECT explode(array(${items.join(', ')})) AS ${name})`,
    nonFinite: (x) => `(isnan(${x}) OR abs(${x}) = double('infinity'))`,
    quote: (name) => `\`${name}\``,
    literal: backslashEscaped,
    materialized: ''
  },
  bigquery: {
    text: 'STRING',
    double: 'FLOAT64',
    bigint: 'INT64',
    xor: (a, b) => `(${a} ^ ${b})`,
    shr: (a, n) => `(${a} >> ${n})`,
    md5Word: (s, word) => `CAST(CONCAT('0x', SUBSTR(TO_HEX(MD5(${s})), ${1 + 8 * word}, 8)) AS INT64)`,
    range: (name, n) => `(SELECT ${name} FROM UNNEST(GENERATE_ARRAY(0, ${n - 1})) AS ${name})`,
    list: (name, items) => `(SELECT ${name} FROM UNNEST([${items.join(', ')}]) AS ${name})`,
    nonFinite: (x) => `(IS_NAN(${x}) OR IS_INF(${x}))`,
    quote: (name) => `\`${name}\``,
    literal: backslashEscaped,
    materialized: ''
  }
}

/**
 * A rules number as the engine's double, exactly: the shortest text that reads back as it (JavaScript's) cast
 * from a string, which every engine rounds correctly (a bare 0.01 is a DECIMAL in DuckDB and BigQuery).
 */
export function doubleIn(d: DialectText, x: number): string {
  return `CAST(${d.literal(String(x))} AS ${d.double})`
}
