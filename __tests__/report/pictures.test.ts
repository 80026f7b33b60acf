/**
 * The report's pictures (issue 19): the forest plot (forest.ts, axis.ts), the wins / losses bars (count-bars.ts),
 * the histogram (charts.ts, histogram.ts) and the slice of the tail of losses (left-tail.ts). Positions are checked
 * against the axis arithmetic done by hand, so a picture that draws a bar in the wrong place fails.
 */
import { describe, expect, it } from '@jest/globals'
import { axisLines, columnOf, numberAxis, tickLabel } from '../../src/report/axis.js'
import { histogramChart, histogramLines } from '../../src/report/charts.js'
import { cutToWidth, displayWidth } from '../../src/report/columns.js'
import { countBars } from '../../src/report/count-bars.js'
import { gatedForests, sliceForest } from '../../src/report/forest.js'
import { leftTail, leftTailSentence } from '../../src/report/left-tail.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { toText } from '../../src/report/text.js'
import {
  failProtectedSliceScenario,
  gate,
  inconclusiveScenario,
  makeRows,
  namesScenario,
  SCENARIOS,
  TYPED
} from './scenarios.js'

/** The bodies of the ```text blocks of a Markdown report. */
function textBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^(`{3,})text\n([\s\S]*?)\n\1$/gm)].map((m) => m[2])
}

describe('the numeric axis', () => {
  it('puts round, labelled ticks around every value (hand-checked)', () => {
    // values -10.9 .. +2.9 with 0: span 13.8, step = niceStep(13.8 / 4 = 3.45) = 5; floor(-10.9/5) = -3, ceil(2.9/5) = 1.
    const axis = numberAxis([0, -10.9, -9.4, 1.1, 2.9, -2, -0.5], 34)
    expect(axis.ticks).toEqual([-15, -10, -5, 0, 5])
    expect(axis.ticks.map((t) => tickLabel(axis, t))).toEqual(['-15', '-10', '-5', '0', '+5'])
    // column = round((v - lo) / (hi - lo) * 33): 0 -> round(15/20*33) = round(24.75) = 25; -2 -> round(13/20*33) = 21.
    expect(columnOf(axis, 0)).toBe(25)
    expect(columnOf(axis, -2)).toBe(21)
    const [rule, labels] = axisLines(axis)
    expect(rule[25]).toBe('┴')
    expect(labels[25]).toBe('0')
    expect(labels.trim().split(/\s+/)).toEqual(['-15', '-10', '-5', '0', '+5'])
  })
  it('labels ticks with the decimals of the step (2.5 -> one decimal)', () => {
    // span 9, niceStep(9 / 4 = 2.25) = 2.5; floor(-6 / 2.5) = -3, ceil(3 / 2.5) = 2.
    const axis = numberAxis([0, -6, 3], 34)
    expect(axis.step).toBe(2.5)
    expect(axis.ticks.map((t) => tickLabel(axis, t))).toEqual(['-7.5', '-5.0', '-2.5', '0', '+2.5', '+5.0'])
  })
})

describe('columns', () => {
  it('counts wide characters as two columns and cuts by columns', () => {
    expect(displayWidth('größe%')).toBe(6)
    expect(displayWidth('检索')).toBe(4)
    expect(cutToWidth('检索检索', 5)).toBe('检索…')
  })
})

describe('the forest plot', () => {
  const result = failProtectedSliceScenario()
  const [recall] = gatedForests(result)

  it('draws one row per check and slice on one axis, 0 and every limit as vertical lines', () => {
    const lines = recall.lines
    const rows = lines.filter((l) => /^(pass|FAIL|INCONCL)\s/.test(l))
    expect(rows.map((r) => r.split(/\s+/).slice(0, 2).join(' '))).toEqual(['pass 1', 'FAIL 2'])
    const ruleAt = lines.findIndex((l) => l.includes('┴'))
    const labels = lines[ruleAt + 1]
    const zero = labels.search(/(?<=\s)0(?=\s)/)
    expect(zero).toBeGreaterThan(0)
    // The no-change line sits under the 0 label in every row (or the row's interval covers it).
    for (const r of rows) expect('│├┤─═╞╡●■'.includes(r[zero])).toBe(true)
    expect(lines[ruleAt][zero]).toBe('┴')
    // Limits -0.5 and -2.0 points (margins 0.005 and 0.02): one ¦ each, left of 0, in every row.
    for (const r of rows) expect([...r.slice(0, zero)].filter((ch) => ch === '¦').length).toBe(2)
    expect(lines).toContain('  1  recall does not drop: ¦ limit -0.5 points')
    expect(lines).toContain('  2  new users are protected: ¦ limit -2.0 points')
  })

  it('tells failing, inconclusive and passing rows apart by word, marker and line (no colour needed)', () => {
    const fail = recall.lines.find((l) => l.startsWith('FAIL')) as string
    expect(fail).toMatch(/╞═*■═*╡/)
    expect(fail).toContain('-10.1 [-18.1, -9.4]')
    const pass = recall.lines.find((l) => l.startsWith('pass')) as string
    expect(pass).toMatch(/├─*●─*┤/)
    expect(pass).toContain('+2.1 [+0.2, +3.0]')
    const inconclusive = gatedForests(inconclusiveScenario())[0].lines.find((l) => l.startsWith('INCONCL')) as string
    // The range's bound widens the worse end only, so the estimate may share its cell with the better end's bracket.
    expect(inconclusive).toMatch(/├·+□(·*┤)?/)
  })

  it('shows a max_regressions check with its count limit', () => {
    const lines = gatedForests(inconclusiveScenario())[0].lines
    expect(lines.find((l) => /^pass\s+2\s/.test(l))).toMatch(/\d+ worse ≤ 66$/)
    expect(lines).toContain('  2  few regressions: a count, not an interval: at most 66 queries worse')
  })

  it('draws the exploratory per-slice rows too (in the collapsed section)', () => {
    const lines = sliceForest(result, 'recall@10') as string[]
    expect(lines.filter((l) => l.includes('○')).length).toBe(7) // 6 rows and the legend
    const md = toMarkdown(result)
    const collapsed = md.slice(md.indexOf('<summary>Per-slice breakdown'))
    expect(collapsed).toContain('recall@10: change per slice (exploratory)')
  })
})

describe('wins and losses per slice', () => {
  it('draws losses left and wins right on one count scale, with ties', () => {
    const [recall] = countBars(failProtectedSliceScenario())
    // 160 wins fill the 15 columns of a half; 40 losses: round(40 / 160 * 15) = round(3.75) = 4 cells.
    const all = recall.lines.find((l) => l.startsWith('all queries')) as string
    expect(all).toMatch(/ 40 +▒{4}│█{15} 160 +0$/)
    expect(recall.lines.find((l) => l.startsWith('segment = new'))).toMatch(/ 40 +▒{4}│ +0 +0$/)
  })
  it('draws a max_regressions limit as a count: ║ at the limit, the count against it in words', () => {
    const [recall] = countBars(inconclusiveScenario())
    const all = recall.lines.find((l) => l.startsWith('all queries')) as string
    expect(all).toContain('║')
    expect(all).toMatch(/║ limit 66 worse: 45, pass$/)
  })
})

describe('the histogram', () => {
  const result = failProtectedSliceScenario()
  it('has readable bins, gains and losses in separate series (colours) and with their own symbols', () => {
    const src = histogramChart(result) as string
    expect(src).toContain('xychart-beta horizontal')
    expect(src).not.toContain('..')
    // Each bin's label carries its count, and the count axis has no labels (so Mermaid pads it by 0 and a bar of 0 is 0 wide).
    expect(src).toContain('"▼ -15 to -12.5 (12)", "▼ -12.5 to -10 (6)"')
    expect(src).toContain('"= 0 (0)"')
    expect(src).toContain('"▲ 12.5 to 15 (0)"')
    expect(src).toContain('"xyChart": {"yAxis": {"showLabel": false, "showTick": false}}')
    const bars = src.split('\n').filter((l) => l.trim().startsWith('bar ['))
    expect(bars).toEqual([
      '  bar [12, 6, 16, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0]',
      '  bar [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]',
      '  bar [0, 0, 0, 0, 0, 0, 0, 27, 52, 49, 32, 0, 0]'
    ])
    expect(src).toContain('"plotColorPalette": "#d6604d, #8c8c8c, #4393c3"')
    const lines = histogramLines(result)
    expect(lines[0]).toMatch(/^▼ -15 to -12\.5 ▒+ +12$/)
    expect(lines.find((l) => l.startsWith('▲'))).toMatch(/█+/)
  })
  it('names the slice the tail of losses comes from', () => {
    const tail = leftTail(result)
    // 10% of 200 queries = 20; the 20 worst are all new users (their recall fell by about 10 points, nobody else's fell that much).
    expect(tail).toEqual({ size: 20, attribute: 'segment', value: 'new', inTail: 20, n: 40, paired: 200 })
    expect(leftTailSentence(tail as NonNullable<typeof tail>)).toBe(
      'Tail of losses: 20 of the 20 queries that lost most are segment = new (a slice of 40 of all 200 queries).'
    )
    expect(toMarkdown(result)).toContain('Tail of losses: 20 of the 20 queries that lost most are segment = new')
  })
})

describe('every picture', () => {
  it.each(SCENARIOS.map(([name]) => name))('%s: lines fit a PR comment code block (at most 110 columns)', (name) => {
    const result = (SCENARIOS.find(([n]) => n === name) as (typeof SCENARIOS)[number])[1]()
    const blocks = textBlocks(toMarkdown(result))
    // Every scenario draws pictures: without this, a change of the fence would leave nothing to measure and pass.
    expect(blocks.length).toBeGreaterThan(0)
    for (const block of blocks)
      for (const line of block.split('\n'))
        expect({ line, width: displayWidth(line) <= 110 }).toEqual({ line, width: true })
  })

  it('shows names with % _ * @ # and non-ASCII as typed (forest, bars, key, terminal)', () => {
    const result = namesScenario()
    const pictures = textBlocks(toMarkdown(result)).join('\n')
    const slices = TYPED.slices.map((v) => `${TYPED.attribute} = ${v}`)
    for (const typed of [TYPED.metric, TYPED.check, ...slices]) expect(pictures).toContain(typed)
    const [forest] = gatedForests(result)
    expect(forest.lines[0].startsWith(`${TYPED.metric}: change`)).toBe(true)
    expect(forest.lines).toContain(`  1  ${TYPED.check}: ¦ limit -1.0 points`)
    for (const s of slices) expect(countBars(result)[0].lines.some((l) => l.startsWith(s))).toBe(true)
    const text = toText(result, { color: false })
    for (const typed of [TYPED.metric, TYPED.check, ...slices]) expect(text).toContain(typed)
  })

  it('makes a fence longer than any backtick run in a name, so the name cannot close it', () => {
    const rows = makeRows(
      60,
      'ticks',
      () => 'all',
      () => 'all',
      (_s, r) => 0.02 * (r() - 0.5)
    )
    const md = toMarkdown(
      gate(
        `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
statistics: { resamples: 200, seed: 1 }
queries: { min_per_slice: 10 }
checks:
  - name: "a \`\`\`\` b"
    metric: recall@10
    non_inferior: { margin: 0.01 }
`,
        rows
      )
    )
    expect(md).toContain('`````text\nrecall@10: change')
    const block = textBlocks(md)[0]
    expect(block).toContain('  1  a ```` b: ¦ limit -1.0 points')
  })

  it('never carries an HTML comment opener, and no name closes its fence', () => {
    for (const [, make] of SCENARIOS) {
      const md = toMarkdown(make())
      expect(md).not.toContain('<!--')
      const fences = md.split('\n').filter((l) => /^`{3,}/.test(l))
      expect(fences.length % 2).toBe(0)
    }
  })
})
