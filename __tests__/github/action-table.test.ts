/**
 * docs/github.md's tables of the action's inputs and outputs are what action.yml says (npm run docs:inputs writes
 * them): an input added, renamed or redescribed in action.yml without the docs fails here.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { optionalFiles } from '../../src/load.js'
// @ts-expect-error the script is plain JavaScript (no declarations): its two functions are tested here
import { actionTables, withTables } from '../../scripts/action-table.js'

describe('the inputs and outputs table', () => {
  it('in docs/github.md is generated from action.yml', () => {
    const doc = readFileSync('docs/github.md', 'utf8')
    const tables = (actionTables as (yaml: string) => string)(readFileSync('action.yml', 'utf8'))
    expect((withTables as (doc: string, tables: string) => string)(doc, tables)).toBe(doc)
    for (const input of ['rules', 'baseline', 'candidate', 'candidate-judge-labels', 'report-dir'])
      expect(tables).toContain(`| \`${input}\` |`)
  })

  it('action.yml declares every optional file the registry declares (GitHub reads the inputs from that file alone)', () => {
    const inputs = (parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, unknown> }).inputs
    for (const f of optionalFiles()) expect(Object.keys(inputs)).toContain(f.option)
  })
})
