/**
 * BigQuery cannot run here, so its statement's meaning is checked in DuckDB: the BigQuery text is parsed by BigQuery's
 * grammar (sql-parser-cst) and written back with each BigQuery function, operator, type, literal and name mapped to
 * the DuckDB spelling of what BigQuery's reference says it does; anything else is copied as written. A name or
 * function this table does not know stays as BigQuery wrote it, so DuckDB refuses it rather than guessing.
 *
 * | BigQuery (its documentation) | DuckDB |
 * | --- | --- |
 * | `TO_HEX(MD5(s))`: MD5 gives the 16 bytes of the digest, TO_HEX their lowercase hex | `md5(s)` (lowercase hex) |
 * | `GENERATE_ARRAY(a, b)`: a .. b inclusive, step 1 | `generate_series(a, b)` |
 * | `FROM UNNEST(array) AS j`: one row per element, the column named j | `FROM unnest(array) AS u_j(j)` |
 * | `a ^ b`: bitwise xor | `xor(a, b)` (`^` is a power in DuckDB) |
 * | `IS_NAN(x)`, `IS_INF(x)` | `isnan(x)`, `isinf(x)` |
 * | `INT64`, `FLOAT64`, `STRING` | `BIGINT`, `DOUBLE`, `VARCHAR` |
 * | `'…'` with backslash escapes (decoded by the grammar) | `'…'` with quotes doubled |
 * | `` `name` `` | `"name"` |
 *
 * `CAST('0x…' AS INT64)` (hexadecimal text, documented in BigQuery's conversion rules), CONCAT, SUBSTR (1-based),
 * COALESCE, CASE, the aggregates, `&`, `>>`, `[…]` array literals, EXISTS and UNION ALL mean the same in both.
 */
import type { Node } from 'sql-parser-cst'
import { bigqueryTree } from './sql-grammars.js'

type Any = Node & Record<string, unknown> & { range: [number, number] }

const FUNCTIONS: Record<string, string> = { GENERATE_ARRAY: 'generate_series', IS_NAN: 'isnan', IS_INF: 'isinf' }
const TYPES: Record<string, string> = { INT64: 'BIGINT', FLOAT64: 'DOUBLE', STRING: 'VARCHAR' }

/** The BigQuery statement as DuckDB text with the same meaning (see the table above). */
export function bigqueryInDuckdb(text: string): string {
  return render(bigqueryTree(text) as Any, text)
}

function render(node: Any, src: string): string {
  const sub = (n: unknown): string => render(n as Any, src)
  switch (node.type) {
    case 'string_literal':
      return `'${(node as unknown as { value: string }).value.replace(/'/g, "''")}'`
    case 'identifier': {
      const { text, name } = node as unknown as { text: string; name: string }
      return text.startsWith('`') ? `"${name.replace(/"/g, '""')}"` : text
    }
    case 'keyword': {
      const { text } = node as unknown as { text: string }
      return TYPES[text.toUpperCase()] ?? text
    }
    case 'binary_expr': {
      const { operator, left, right } = node as unknown as { operator: string; left: unknown; right: unknown }
      if (operator === '^') return `xor(${sub(left)}, ${sub(right)})`
      break
    }
    case 'func_call': {
      const name = (node.name as unknown as { name: string }).name.toUpperCase()
      const args = argsOf(node)
      if (name === 'TO_HEX') {
        const inner = args[0] as Any | undefined
        if (args.length !== 1 || inner?.type !== 'func_call' || functionName(inner) !== 'MD5')
          throw new Error('TO_HEX is mapped only around MD5 (the digest as hex)')
        return `md5(${sub(argsOf(inner)[0])})`
      }
      if (name === 'MD5') throw new Error('MD5 is mapped only inside TO_HEX')
      if (FUNCTIONS[name] !== undefined) return `${FUNCTIONS[name]}(${args.map(sub).join(', ')})`
      break
    }
    case 'alias': {
      const { expr, alias } = node as unknown as { expr: Any; alias: Any }
      if (expr.type === 'unnest_expr') {
        const column = sub(alias)
        return `${sub(expr)} AS u_${column.replace(/\W/g, '')}(${column})`
      }
      break
    }
  }
  return splice(node, src)
}

/** A node's source text with each child node replaced by its rendering. */
function splice(node: Any, src: string): string {
  const children: Any[] = []
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect)
    else if (value !== null && typeof value === 'object' && 'range' in value && 'type' in value)
      children.push(value as Any)
  }
  for (const [key, value] of Object.entries(node)) if (key !== 'range') collect(value)
  children.sort((a, b) => a.range[0] - b.range[0])
  let out = ''
  let at = node.range[0]
  for (const child of children) {
    out += src.slice(at, child.range[0]) + render(child, src)
    at = child.range[1]
  }
  return out + src.slice(at, node.range[1])
}

function functionName(node: Any): string {
  return (node.name as { name: string }).name.toUpperCase()
}

function argsOf(node: Any): unknown[] {
  const paren = node.args as { expr?: { args?: { items?: unknown[] } } } | undefined
  return paren?.expr?.args?.items ?? []
}
