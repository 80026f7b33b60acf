/**
 * The real grammars the warehouse statements are held to (docs/scale.md, "Dialects"): Spark SQL by dt-sql-parser
 * (npm; the ANTLR grammar of Spark's SqlBaseParser, run in a child Node with a module hook its build needs) and
 * BigQuery by sql-parser-cst (npm, dialect bigquery), which also decodes every string literal as BigQuery reads it.
 * They catch spelling (and, for BigQuery, what a literal means); what a statement computes is checked by running it.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, type Node } from 'sql-parser-cst'

const here = path.dirname(fileURLToPath(import.meta.url))

/** Each statement's syntax errors as Spark's grammar reports them ([] for a valid statement). */
export function sparkSyntaxErrors(texts: readonly string[]): Array<Array<{ message: string; startLine: number }>> {
  const r = spawnSync(
    process.execPath,
    ['--import', path.join(here, 'extensionless-esm.mjs'), path.join(here, 'spark-grammar.mjs')],
    { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 1 << 28 }
  )
  if (r.status !== 0) throw new Error(`spark-grammar.mjs failed: ${r.stderr}`)
  return JSON.parse(r.stdout) as Array<Array<{ message: string; startLine: number }>>
}

/** The statement's concrete syntax tree under BigQuery's grammar (throws on a syntax error). */
export function bigqueryTree(text: string): Node {
  return parse(text, { dialect: 'bigquery', includeRange: true })
}

/** Every node of a tree, depth first. */
export function* nodesOf(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const x of node) yield* nodesOf(x)
    return
  }
  if (node === null || typeof node !== 'object') return
  if (typeof (node as { type?: unknown }).type === 'string') yield node as Node
  for (const [key, value] of Object.entries(node)) if (key !== 'range') yield* nodesOf(value)
}

/** The values of a BigQuery statement's string literals, as BigQuery reads them. */
export function bigqueryStringValues(text: string): string[] {
  return [...nodesOf(bigqueryTree(text))]
    .filter((n) => n.type === 'string_literal')
    .map((n) => (n as unknown as { value: string }).value)
}
