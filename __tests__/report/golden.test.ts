/**
 * Golden files: the Markdown report, the terminal report (no colour) and the regression set of each example
 * scenario, rendered in memory, byte for byte (the one golden mechanism, ../golden.ts: UPDATE_GOLDEN=1 rewrites).
 */
import { describe, it } from '@jest/globals'
import { toMarkdown } from '../../src/report/markdown.js'
import { toRegressionsJsonl } from '../../src/report/regressions.js'
import { toText } from '../../src/report/text.js'
import { expectGolden } from '../golden.js'
import { SCENARIOS } from './scenarios.js'

describe('golden reports', () => {
  for (const [name, make] of SCENARIOS) {
    it(`${name}: markdown, text and regressions.jsonl match the committed files`, () => {
      const result = make()
      expectGolden(`${name}.md`, toMarkdown(result))
      expectGolden(`${name}.txt`, toText(result, { color: false }))
      expectGolden(`${name}.regressions.jsonl`, toRegressionsJsonl(result))
    })
  }
})
