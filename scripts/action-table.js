#!/usr/bin/env node
/**
 * npm run docs:inputs — the action's inputs and outputs as Markdown tables, generated from action.yml, between the
 * `<!-- action:start -->` and `<!-- action:end -->` markers of docs/github.md. A test (__tests__/github/action-
 * table.test.ts) fails when the committed tables are not what action.yml gives, so the docs cannot drift.
 *
 *   node scripts/action-table.js           print the tables
 *   node scripts/action-table.js --write   write them into docs/github.md
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const START = '<!-- action:start -->'
export const END = '<!-- action:end -->'

/** A table cell: one line, `|` escaped. */
const cell = (text) =>
  String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\|/g, '\\|')

/** The inputs and outputs tables of an action.yml's text. */
export function actionTables(yamlText) {
  const action = parse(yamlText)
  const out = ['| Input | Required | Default | What it is |', '| --- | --- | --- | --- |']
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    const def = spec.default === undefined || spec.default === '' ? '' : `\`${cell(spec.default)}\``
    out.push(`| \`${name}\` | ${spec.required ? 'yes' : 'no'} | ${def} | ${cell(spec.description)} |`)
  }
  out.push('', '| Output | What it is |', '| --- | --- |')
  for (const [name, spec] of Object.entries(action.outputs ?? {}))
    out.push(`| \`${name}\` | ${cell(spec.description)} |`)
  return out.join('\n')
}

/** docs/github.md with the tables between the markers replaced. */
export function withTables(doc, tables) {
  const a = doc.indexOf(START)
  const b = doc.indexOf(END)
  if (a < 0 || b < a) throw new Error(`docs/github.md has no ${START} ... ${END} section`)
  return `${doc.slice(0, a + START.length)}\n${tables}\n${doc.slice(b)}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tables = actionTables(readFileSync(join(root, 'action.yml'), 'utf8'))
  if (process.argv.includes('--write')) {
    const file = join(root, 'docs/github.md')
    writeFileSync(file, withTables(readFileSync(file, 'utf8'), tables))
    console.error(`wrote the inputs and outputs of action.yml into ${file}`)
  } else console.log(tables)
}
