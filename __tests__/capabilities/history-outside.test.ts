/**
 * Rules with `history` run outside a pull request (the CLI) say that the history was not read, where the chart
 * would be (red-team finding, 2026-12-02: `explain` listed it as active and the report said nothing of it), in every
 * report the CLI writes (the terminal's said nothing until 2026-12-04).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { cli, writeFiles } from '../helpers.js'

describe('history outside a pull request', () => {
  it('is named as not read where the chart would be, in the Markdown and the terminal report', async () => {
    const files = writeFiles({ 'r.yml': readFileSync('examples/rules.yml', 'utf8') + 'history: { runs: 5 }\n' })
    const args = [
      'gate',
      '--rules',
      files['r.yml'],
      '--baseline',
      'examples/baseline.jsonl',
      '--candidate',
      'examples/candidate.jsonl'
    ]
    const md = await cli([...args, '--format', 'markdown'])
    expect(md.stdout).toContain('### History')
    expect(md.stdout).toContain('Not read outside a pull request: the history is the reports of push runs')
    const terminal = await cli([...args, '--format', 'text'])
    expect(terminal.stdout).toMatch(
      /^History\n {2}Not read outside a pull request: the history is the reports of push runs/m
    )
  })
})
