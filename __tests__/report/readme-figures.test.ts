/**
 * Issue 13 item 8: every figure of the README's worked example is one the demo prints (the same gate run as
 * scripts/demo.js, in-process), and the README's claim about the calibration matches the table of
 * `npm run calibrate:designs -- --write` (bench/results/calibration-designs.md, linked from
 * docs/statistics.md): the gate's false-pass range, and the percentile bootstrap's worst on independent queries.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { fixed, signed } from '../../src/report/format.js'
import { cli, writeFiles } from '../helpers.js'

const README = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ')

interface JsonComparison {
  metric: string
  slice: Record<string, string>
  n: number
  baseline: number
  candidate: number
  delta: number
}

describe("the README's worked example", () => {
  it('quotes the figures the demo prints (recall@10 by segment and over all queries)', async () => {
    const f = writeFiles({ 'report.json': '' })
    const r = await cli([
      'gate',
      '--rules',
      'examples/rules.yml',
      '--baseline',
      'examples/baseline.jsonl',
      '--candidate',
      'examples/candidate.jsonl',
      '--json',
      f['report.json'],
      '--format',
      'markdown'
    ])
    expect(r.code).toBe(1)
    const comparisons = JSON.parse(readFileSync(f['report.json'], 'utf8')).comparisons as JsonComparison[]
    const recall = (segment?: string): JsonComparison =>
      comparisons.find(
        (c) =>
          c.metric === 'recall@10' &&
          (segment === undefined
            ? Object.keys(c.slice).length === 0
            : c.slice.segment === segment && Object.keys(c.slice).length === 1)
      ) as JsonComparison
    const established = recall('established')
    const fresh = recall('new')
    const all = recall()
    // The figures as the report prints them: 4 decimals in the tables, points (x100, 1 decimal) in the sentences.
    const v = (x: number): string => fixed(x, 4)
    const points = (x: number): string => signed(x * 100, 1)
    const sentence =
      `the ${established.n} queries of established users (${fixed((established.n / all.n) * 100, 0)}%) go from ${v(established.baseline)} to ${v(established.candidate)} recall@10, ` +
      `the ${fresh.n} queries of new users (${fixed((fresh.n / all.n) * 100, 0)}%) from ${v(fresh.baseline)} to ${v(fresh.candidate)}. ` +
      `The average rises from ${v(all.baseline)} to ${v(all.candidate)} (${points(all.delta)} points) while the new users lose ${fixed(-fresh.delta * 100, 1)} points.`
    expect(README).toContain(sentence)
    // And the report itself prints them.
    expect(r.stdout).toContain(
      `| \`recall@10\` | segment = new | ${fresh.n} | ${v(fresh.baseline)} | ${v(fresh.candidate)} |`
    )
    expect(r.stdout).toContain(`fell by ${fixed(-fresh.delta * 100, 1)} points`)
  })

  it('quotes the figures the TREC-runs-plus-queries-file example prints (examples/trec)', async () => {
    const f = writeFiles({ 'report.json': '' })
    const r = await cli([
      'gate',
      '--rules',
      'examples/trec/rules.yml',
      '--baseline',
      'examples/trec/baseline.run',
      '--candidate',
      'examples/trec/candidate.run',
      '--json',
      f['report.json']
    ])
    expect(r.code).toBe(1)
    const comparisons = JSON.parse(readFileSync(f['report.json'], 'utf8')).comparisons as Array<
      JsonComparison & { ci: [number, number] }
    >
    const ndcg = (segment?: string) =>
      comparisons.find(
        (c) =>
          c.metric === 'nDCG@10' &&
          (segment === undefined
            ? Object.keys(c.slice).length === 0
            : c.slice.segment === segment && Object.keys(c.slice).length === 1)
      )!
    const all = ndcg()
    const fresh = ndcg('new')
    const pts = (x: number): string => fixed(Math.abs(x) * 100, 1)
    const bound = (x: number): string => (x < 0 ? `−${pts(x)}` : `+${pts(x)}`)
    const sentence =
      `It fails: nDCG@10 rises by ${pts(all.delta)} points overall, but for the ${fresh.n} new users it falls by ${pts(fresh.delta)} points with an interval ` +
      `from ${bound(fresh.ci[0])} to ${bound(fresh.ci[1])}, which cannot rule out the 2-point drop the rules forbid`
    expect(all.delta).toBeGreaterThan(0)
    expect(fresh.delta).toBeLessThan(0)
    expect(README).toContain(sentence)
    // The rules block the README shows is the example's rules file, from `version: 1` on.
    const rules = readFileSync('examples/trec/rules.yml', 'utf8')
    const shown = /# examples\/trec\/rules.yml\n([\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'))?.[1]
    expect(shown?.replace(/ +#.*$/gm, '')).toBe(rules.slice(rules.indexOf('version: 1')))
  })

  it('states the calibration as npm run calibrate:designs -- --write measured it (its table, linked from docs/statistics.md)', () => {
    const stats = readFileSync('bench/results/calibration-designs.md', 'utf8')
    const table = stats.slice(stats.indexOf('<!-- property:start -->'), stats.indexOf('<!-- property:end -->'))
    const rows = table
      .split('\n')
      .filter((l) => l.startsWith('| ') && l.includes('['))
      .map((l) => l.split(' | '))
    expect(rows.length).toBeGreaterThan(30)
    // Rows with a design over the binomial test, in the promised families: the README names them.
    const over = rows.filter((r) => !r[0].includes('beyond the promise') && Number(r[5]) > 0)
    expect([...new Set(over.map((r) => r[0].replace('| ', '')))]).toEqual(['heavy-tailed latency'])
    const worst = Math.max(...over.map((r) => Number(/^([\d.]+)/.exec(r[3])?.[1])))
    expect(README).toContain(`but on one heavy-tailed design, at ${worst.toFixed(3)}`)
    expect(stats).toContain('unequal clusters 0.313')
    expect(README).toContain('the code before passed up to 0.313')
  })
})
