/**
 * Golden files: the Markdown report, the terminal report (no colour) and the regression set of each example
 * scenario, byte for byte. After an intended change, regenerate with
 *   UPDATE_GOLDEN=1 npm test -- __tests__/report/golden.test.ts
 * and review the diff of __tests__/report/golden/ like code.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { toMarkdown } from '../../src/report/markdown.js'
import { toRegressionsJsonl } from '../../src/report/regressions.js'
import { toText } from '../../src/report/text.js'
import { SCENARIOS } from './scenarios.js'

const DIR = path.join(process.cwd(), '__tests__', 'report', 'golden')
const update = process.env.UPDATE_GOLDEN === '1'

function golden(file: string, actual: string): void {
  const p = path.join(DIR, file)
  if (update) writeFileSync(p, actual)
  expect(existsSync(p)).toBe(true)
  expect(actual).toBe(readFileSync(p, 'utf8'))
}

describe('golden reports', () => {
  for (const [name, make] of SCENARIOS) {
    it(`${name}: markdown, text and regressions.jsonl match the committed files`, () => {
      const result = make()
      golden(`${name}.md`, toMarkdown(result))
      golden(`${name}.txt`, toText(result, { color: false }))
      golden(`${name}.regressions.jsonl`, toRegressionsJsonl(result))
    })
  }
})
