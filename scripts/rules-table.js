#!/usr/bin/env node
/**
 * npm run docs:rules — the table of every rules key in docs/rules.md, generated from the published schema
 * (rules/schema.json, which `npm run schema` writes from src/config/schema.ts and its fragments), between the
 * `<!-- rules-keys:start -->` and `<!-- rules-keys:end -->` markers: one row per key path, in the schema's order,
 * with its description, the words an editor shows for the key too. __tests__/config/rules-keys.test.ts fails when
 * the committed table is not what the schema gives, so no key can go undocumented (statistics.method did).
 *
 *   node scripts/rules-table.js           print the table
 *   node scripts/rules-table.js --write   write it into docs/rules.md
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const START = '<!-- rules-keys:start -->'
export const END = '<!-- rules-keys:end -->'

/** A table cell: one line, `|` escaped. */
const cell = (text) =>
  String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\|/g, '\\|')

/** The description of a schema node, or of the first of its alternatives that has one. */
const describe = (node) =>
  node.description ?? [...(node.oneOf ?? []), ...(node.anyOf ?? [])].map((n) => n.description).find(Boolean)

/**
 * Every key path of a schema with its description, depth first in the schema's order: `metrics.<name>.better` for
 * the keys of a map, `checks[].metric` for the items of a list; a key that appears in several alternatives once.
 */
export function rulesKeys(schema) {
  const out = new Map()
  const walk = (node, path) => {
    if (node === null || typeof node !== 'object') return
    for (const alternative of [...(node.oneOf ?? []), ...(node.anyOf ?? [])]) walk(alternative, path)
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const at = path === '' ? key : `${path}.${key}`
      if (!out.has(at)) out.set(at, describe(child))
      walk(child, at)
    }
    if (node.additionalProperties !== null && typeof node.additionalProperties === 'object')
      walk(node.additionalProperties, `${path}.<name>`)
    if (node.items !== null && typeof node.items === 'object') walk(node.items, `${path}[]`)
  }
  walk(schema, '')
  out.delete('$schema')
  return out
}

/** The Markdown table of `rulesKeys`. */
export function rulesTable(schema) {
  const rows = ['| Key | Meaning |', '| --- | --- |']
  for (const [key, description] of rulesKeys(schema)) rows.push(`| \`${key}\` | ${cell(description)} |`)
  return rows.join('\n')
}

/** docs/rules.md with the table between the markers replaced. */
export function withTable(doc, table) {
  const a = doc.indexOf(START)
  const b = doc.indexOf(END)
  if (a < 0 || b < a) throw new Error(`docs/rules.md has no ${START} ... ${END} section`)
  return `${doc.slice(0, a + START.length)}\n${table}\n${doc.slice(b)}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const table = rulesTable(JSON.parse(readFileSync(join(root, 'rules/schema.json'), 'utf8')))
  if (process.argv.includes('--write')) {
    const file = join(root, 'docs/rules.md')
    writeFileSync(file, withTable(readFileSync(file, 'utf8'), table))
    console.error(`wrote the keys of rules/schema.json into ${file}`)
  } else console.log(table)
}
