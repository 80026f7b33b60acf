/** Unit tests of the report's pure pieces: escaping, metric families, histogram bins, next steps, regression set, words. */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { MetricRule } from '../../src/config/types.js'
import { clean, htmlText, inline } from '../../src/report/escape.js'
import { terminalText } from '../../src/report/doc/text.js'
import { histogram, niceStep } from '../../src/report/histogram.js'
import { metricFamily } from '../../src/report/metric-family.js'
import { nextSteps } from '../../src/report/next-steps.js'
import { regressionCount, regressionRecords, toRegressionsJsonl } from '../../src/report/regressions.js'
import { summarize } from '../../src/report/verdict.js'
import { failProtectedSliceScenario, hostileScenario, inconclusiveScenario, passScenario } from './scenarios.js'

const ZWJ = '\u200d'
const share: MetricRule = {
  name: 'recall@10',
  better: 'higher',
  binary: false,
  range: [0, 1],
  unit: '',
  fill: undefined
}

/** The text of inline Markdown outside its code spans, read as CommonMark does (a backslash escapes outside code only). */
function outsideCode(md: string): string {
  let out = ''
  for (let i = 0; i < md.length; i++) {
    if (md[i] === '\\') i++
    else if (md[i] === '`') i = md.indexOf('`', i + 1)
    else out += md[i]
    if (i < 0) throw new Error(`unclosed code span in ${md}`)
  }
  return out
}

describe('escape', () => {
  it('defuses mentions, issue links, GH- links and URLs by putting each such word in a code span, with no invisible character', () => {
    expect(inline('@octocat #12 GH-3 https://x.example www.x.example')).toBe(
      '`@octocat` `#12` `GH-3` `https://x.example` `www.x.example`'
    )
    // What a reader copies is what was written: recall@10, not recall@<ZWJ>10.
    expect(inline('recall@10 fell; see org/repo#45|a_b')).toBe('`recall@10` fell; see `org/repo#45`\\|a\\_b')
    expect(inline('a`@b`c')).toBe('a\\``@b`\\`c')
    expect(inline('recall@10: see #12.')).toBe('`recall@10`: see `#12`.')
    expect(htmlText('recall@10 <b>')).toBe('<code>recall@10</code> &lt;b&gt;')
    expect(inline('recall@10')).not.toContain(ZWJ)
  })
  it('entity-escapes HTML and comments, escapes table and Markdown syntax', () => {
    expect(inline('<!-- m --> a|b *c* `d` [e](f) $g$ \\')).toBe(
      '&lt;\\!-- m --&gt; a\\|b \\*c\\* \\`d\\` \\[e\\](f) \\$g\\$ \\\\'
    )
    expect(htmlText(`<b>"x" & 'y'</b>`)).toBe('&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;')
  })
  it('removes bidi overrides and control characters, folds line breaks, cuts long text by code points', () => {
    expect(clean('a\u202eb\u2066c\u2069\u0007\u001b[31md\r\ne\tf')).toBe('abc[31md e f')
    expect(clean('x'.repeat(100), 10)).toBe('xxxxxxxxx…')
    expect(clean('😀'.repeat(20), 5)).toBe('😀😀😀😀…')
    expect(terminalText('\u001b]52;c;ZXZpbA==\u0007ok')).toBe(']52;c;ZXZpbA==ok')
  })
  it('leaves "p < 0.050" and "a > b" as typed (the raw Markdown reads as rendered), and entity-escapes every < or > that could be HTML', () => {
    expect(inline('with p < 0.050, and a > b')).toBe('with p < 0.050, and a > b')
    expect(htmlText('p < 0.050')).toBe('p &lt; 0.050')
    expect(inline('<b>x</b> <!-- m --> <https://x.example> a<b a>b <\tc')).toBe(
      '&lt;b&gt;x&lt;/b&gt; &lt;\\!-- m --&gt; &lt;`https://x.example`&gt; a&lt;b a&gt;b <\tc'.replace('\t', ' ')
    )
  })
  it('holds for any string (property): no raw < that could open HTML, no unescaped |, no line break, every @ and # in a code span, bounded length', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ maxLength: 200 }), (a, b) => {
        for (const s of [a, b, a + '|@#<!--\n' + b]) {
          const out = inline(s)
          // A raw < only before a space or tab, a raw > only after one: neither can open or close HTML.
          expect(out).not.toMatch(/<(?![ \t])|(?<![ \t])>|[\n\r\u202a-\u202e\u2066-\u2069\u0000-\u001f]/)
          expect(out.replace(/\\\\/g, '')).not.toMatch(/(?<!\\)\|/)
          // Every @ and # is inside a code span (escaped characters removed first, then the spans).
          expect(outsideCode(out)).not.toMatch(/[@#]/)
          expect(out).not.toContain('\u200d')
          expect(Array.from(clean(s)).length).toBeLessThanOrEqual(80)
        }
      }),
      { numRuns: 300, seed: 42 }
    )
  })
})

describe('metricFamily', () => {
  it.each([
    ['hit@10', 'hit', 10],
    ['Success@5', 'hit', 5],
    ['success_10', 'hit', 10],
    ['MRR@10', 'rr', 10],
    ['recip_rank', 'rr', null],
    ['recall_100', 'recall', 100],
    ['R@20', 'recall', 20],
    ['P_10', 'precision', 10],
    ['precision@5', 'precision', 5],
    ['ndcg_cut_10', 'ndcg', 10],
    ['eval.nDCG@3', 'ndcg', 3]
  ])('%s is %s (k %s)', (name, family, k) => {
    expect(metricFamily(name)).toEqual({ family, k })
  })
  it.each(['latency_ms', 'map', 'bpref', 'rprecision', 'hits_per_second', 'cost'])('%s is not recognised', (name) => {
    expect(metricFamily(name)).toBeNull()
  })
})

describe('histogram', () => {
  it('chooses 1, 2, 2.5, 5 x 10^k bin widths', () => {
    expect([0.05, 0.051, 0.2, 0.24, 3, 7, 0].map(niceStep)).toEqual([0.05, 0.1, 0.2, 0.25, 5, 10, 1])
  })
  it('bins by hand-checked edges: losses [-jw, -(j-1)w), ties, gains ((j-1)w, jw]', () => {
    // max |d| = 0.3 -> w = niceStep(0.3 / 6) = 0.05, 6 bins a side, labels in points.
    const h = histogram(Float64Array.from([-0.3, -0.1, -0.05, 0, 0, 0.05, 0.1, 0.25, NaN]), share)
    expect(h.step).toBe(0.05)
    expect(h.nonFinite).toBe(1)
    const got = Object.fromEntries(h.bins.filter((b) => b.count > 0).map((b) => [b.label, b.count]))
    expect(got).toEqual({
      '-30 to -25': 1,
      '-10 to -5': 1,
      '-5 to 0': 1,
      '0': 2,
      '0 to 5': 1,
      '5 to 10': 1,
      '20 to 25': 1
    })
    expect(h.bins.length).toBe(13)
    expect(h.bins[0].side).toBe('worse')
    expect(h.bins[12].side).toBe('better')
  })
  it('gives binary metrics three bins and a lower-is-better metric its sides', () => {
    const h = histogram(Float64Array.from([-1, 0, 0, 1, 1, 1]), { ...share, binary: true })
    expect(h.bins.map((b) => [b.label, b.count])).toEqual([
      ['-1', 1],
      ['0', 2],
      ['+1', 3]
    ])
    const lat = histogram(Float64Array.from([5, -5]), { ...share, better: 'lower', range: undefined, unit: 'ms' })
    expect(lat.bins[0].side).toBe('better')
    expect(lat.bins[lat.bins.length - 1].side).toBe('worse')
  })
})

describe('summary and plain words', () => {
  it('names the deciding check with one product-manager sentence', () => {
    const s = summarize(failProtectedSliceScenario())
    expect(s.verdict).toBe('fail')
    expect(s.decidedBy?.check.rule.name).toBe('new users are protected')
    expect(s.decidedBy?.sentence).toBe(
      'recall@10 for segment = new fell by 10.1 points (95% interval -18.1 to -9.4 points, 40 queries); the rules allow a drop of at most 2.0 points.'
    )
  })
  it('explains an inconclusive check with too few queries', () => {
    const s = summarize(inconclusiveScenario())
    const sentences = s.findings.map((f) => f.sentence)
    expect(sentences).toContain(
      'recall@10 for category = rare has only 12 queries; the rules need at least 30 to judge it, so the check is inconclusive.'
    )
    // 40-query categories clear the 2-point margin on the data alone, but not what unseen queries could change.
    expect(sentences).toContain(
      "recall@10 for category = billing rose by 2.2 points (95% interval -6.8 to +3.2 points, 40 queries); this interval cannot support a pass: the data alone clear the limit (their own interval is +1.2 to +3.2 points; the one above adds what unseen queries could change), but with 40 queries a share of up to 8.8% of unseen ones could each lie anywhere in the metric's range [0, 1], which the limit does not allow; about 144 more queries would settle it if nothing changed, so the check is inconclusive."
    )
  })
  it('has no finding when everything passes', () => {
    expect(summarize(passScenario()).findings).toEqual([])
  })
})

describe('what to look at next', () => {
  it('shows first-stage retrieval for a slice whose hit rate collapsed, and hidden regressions', () => {
    const steps = nextSteps(failProtectedSliceScenario())
    expect(steps.map((s) => s.code)).toEqual(['first_stage', 'hidden_regressions'])
    expect(steps[0].evidence).toEqual(['segment = new: hit@10 0.63 → 0.30'])
  })
  it('asks for more independent queries when a check is inconclusive', () => {
    expect(nextSteps(inconclusiveScenario()).map((s) => s.code)).toContain('wide_interval')
  })
  it('shows nothing that does not apply', () => {
    expect(nextSteps(passScenario()).map((s) => s.code)).not.toContain('first_stage')
  })
})

describe('regression set', () => {
  it('lists every query worse on a gated metric, in id order, with both values and attributes', () => {
    const result = failProtectedSliceScenario()
    const records = regressionRecords(result)
    const { base, cand } = result.table.metrics.get('recall@10') as { base: Float64Array; cand: Float64Array }
    const { base: hb, cand: hc } = result.table.metrics.get('hit@10') as { base: Float64Array; cand: Float64Array }
    const expected = result.table.ids.filter((_, i) => cand[i] < base[i] || hc[i] < hb[i])
    expect(records.map((r) => r.query_id)).toEqual(expected)
    // The Markdown's count, computed without building the records, is the same number.
    expect(regressionCount(result)).toBe(expected.length)
    const first = records[0]
    const i = result.table.ids.indexOf(first.query_id)
    expect(first.metrics['recall@10']).toEqual({ baseline: base[i], candidate: cand[i], delta: cand[i] - base[i] })
    expect(Object.keys(first.attributes)).toEqual(['category', 'segment'])
    const text = toRegressionsJsonl(result)
    expect(text.split('\n').length).toBe(records.length + 1)
    // The line holds the record with every number at 12 significant digits (src/util/json-number.ts).
    const round = (x: number): number => Number(x.toPrecision(12))
    const line = JSON.parse(text.split('\n')[0])
    expect(line.query_id).toBe(first.query_id)
    expect(line.metrics['recall@10']).toEqual({
      baseline: base[i],
      candidate: cand[i],
      delta: round(cand[i] - base[i])
    })
  })
  it('keeps hostile names as plain JSON data', () => {
    const text = toRegressionsJsonl(hostileScenario())
    for (const line of text.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow()
    expect(text).toContain('"seg|@team <b>"')
  })
})

describe('inconclusiveCounting: the counts line says how each inconclusive check counted', () => {
  it('names one outcome when they agree, both when on_too_few, on_inconclusive and superior differ', async () => {
    const { inconclusiveCounting } = await import('../../src/report/format.js')
    expect(inconclusiveCounting([{ status: 'pass', counts: 'pass' }])).toBe('')
    expect(
      inconclusiveCounting([
        { status: 'inconclusive', counts: 'fail' },
        { status: 'fail', counts: 'fail' }
      ])
    ).toBe(' (inconclusive counts as fail)')
    expect(inconclusiveCounting([{ status: 'inconclusive', counts: 'pass' }])).toBe(' (inconclusive counts as pass)')
    // on_inconclusive: pass, and a superior check not shown better (always fail): the old line said "counts as pass" for both
    expect(
      inconclusiveCounting([
        { status: 'inconclusive', counts: 'pass' },
        { status: 'inconclusive', counts: 'fail' },
        { status: 'inconclusive', counts: 'fail' }
      ])
    ).toBe(' (1 inconclusive counts as pass, 2 as fail)')
  })
})

describe('an age that cannot be read', () => {
  it('is said as unknown, never "NaN s"', async () => {
    const { formatAge } = await import('../../src/report/provenance.js')
    expect(formatAge(Number.NaN)).toBe('an unknown time')
    expect(formatAge(90)).not.toContain('NaN')
  })
})
