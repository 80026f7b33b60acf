import { describe, expect, it } from '@jest/globals'
import { foldedBlocks } from '../../src/report/sections.js'
import { toHtml } from '../../src/report/doc/html.js'
import { toMarkdownLines } from '../../src/report/doc/markdown.js'
import { toTextLines } from '../../src/report/doc/text.js'
import { namesScenario, TYPED } from './scenarios.js'

/**
 * A folded check's summary quotes its name and a slice value (PR-controlled): it is one untrusted span, escaped
 * once by each renderer. It was HTML made early and passed as the report's own words, so the page showed
 * `&lt;code&gt;` and the terminal the tags.
 */
describe("a folded check's summary is escaped once, by the renderer", () => {
  const blocks = foldedBlocks(namesScenario())
  const name = `${TYPED.check} · count`

  it('is one collapsed section per folded check', () => {
    expect(blocks.map((b) => b.kind)).toEqual(['details'])
  })

  it('Markdown: raw HTML in <summary>, linkish words in <code>', () => {
    expect(toMarkdownLines(blocks)[0]).toBe(
      '<details><summary>Check 2 “latency within 20% *new* <code>@edge</code> <code>#3</code> — naïve_ü · count”: 2 slices of région_%, 1 fail, 1 pass; furthest past its limit: région_% = <code>nouveau*@#1</code> — ß, 40 worse (limit 30)</summary>'
    )
  })

  it('HTML: the same, never entity-escaped twice', () => {
    const html = toHtml(blocks)
    expect(html).toContain('<summary>Check 2 “latency within 20% *new* <code>@edge</code> <code>#3</code>')
    expect(html).not.toContain('&lt;code&gt;')
    expect(html).not.toContain('&amp;')
  })

  it('text: the name as typed, no markup', () => {
    const line = toTextLines(blocks)[0]
    expect(line).toContain(`Check 2 “${name}”`)
    expect(line).not.toContain('<code>')
  })
})
