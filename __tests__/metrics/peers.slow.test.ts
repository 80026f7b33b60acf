/**
 * Our `metrics` against the peers (docs/metrics.md, "The peers"): pytrec_eval (trec_eval's C code), ir_measures and
 * ranx, on the trec_eval conformance fixtures and a seeded 3,000-query run pair (scripts/run-pair.js). The peers'
 * values are committed as digests (__tests__/metrics/peer-references.json, written by scripts/peer-references.py
 * with the versions it names), so this test needs no Python. Asserted, per set and measure:
 * - ours equal pytrec_eval's and ir_measures' on every query pytrec_eval scores (to 12 significant digits, hashed);
 * - a judged query the run lacks: ours 0 (trec_eval -c), ir_measures and ranx 0, pytrec_eval leaves it out;
 * - ranx differs only on queries with tied scores (its numba sort orders ties as it happens to, trec_eval by docno
 *   descending), and equals trec_eval on every query once the ties are broken trec_eval's way.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { computeRunRows, readQrels } from '../../src/metrics/index.js'
import { rowsOf } from '../../src/model/rows.js'
import { tempDir } from '../helpers.js'
import { fileURLToPath } from 'node:url'

interface ToolRef {
  scored: number
  sha256: string
  differs_from_pytrec_eval: number
  absent_values: number[]
}
interface SetRef {
  scored_by_pytrec_eval: number
  absent_from_run: string[]
  ranx_differs_on: string[]
  measures: Record<string, Record<'pytrec_eval' | 'ir_measures' | 'ranx' | 'ranx_ties_broken', ToolRef>>
}
// scripts/run-pair.js is plain JavaScript (it also writes the files for the peers' script): imported by a computed path.
const runPairModule = '../../scripts/run-pair.js'
const { runPair } = (await import(runPairModule)) as {
  runPair: () => { qrels: string; baseline: string; candidate: string }
}
const here = path.dirname(fileURLToPath(import.meta.url))
const references = JSON.parse(readFileSync(path.join(here, 'peer-references.json'), 'utf8')) as {
  sets: Record<string, SetRef>
}
const trec = path.join(process.cwd(), '__tests__', 'fixtures', 'trec')
const dir = tempDir('rg-peers-')
const pair = runPair()
for (const [name, text] of Object.entries(pair)) writeFileSync(path.join(dir, `${name}.txt`), text)
const SETS: Record<string, [qrels: string, run: string]> = {
  trec: [path.join(trec, 'qrels.txt'), path.join(trec, 'run.txt')],
  norel: [path.join(trec, 'qrels-norel.txt'), path.join(trec, 'run-norel.txt')],
  'pair-baseline': [path.join(dir, 'qrels.txt'), path.join(dir, 'baseline.txt')],
  'pair-candidate': [path.join(dir, 'qrels.txt'), path.join(dir, 'candidate.txt')]
}

/** The script's canonical text of a value: 12 significant digits, d.ddddddddddde<exponent>. */
function canonical(v: number): string {
  const [mantissa, exponent] = v.toExponential(11).split('e')
  return `${mantissa}e${Number(exponent)}`
}

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))

function digest(values: Map<string, number>, ids: string[]): string {
  const lines = [...ids].sort(byBytes).map((q) => `${q}\t${canonical(values.get(q) as number)}\n`)
  return createHash('sha256').update(lines.join('')).digest('hex')
}

/** The queries of a TREC run with two documents of the same score. */
function tiedQueries(runFile: string): Set<string> {
  const scores = new Map<string, Set<number>>()
  const tied = new Set<string>()
  for (const line of readFileSync(runFile, 'utf8').split('\n')) {
    const f = line.split(/\s+/)
    if (f.length < 5) continue
    const seen = scores.get(f[0]) ?? new Set<number>()
    const score = Number(f[4])
    if (seen.has(score)) tied.add(f[0])
    seen.add(score)
    scores.set(f[0], seen)
  }
  return tied
}

describe('our metrics and the peers', () => {
  for (const [name, [qrelsFile, runFile]] of Object.entries(SETS)) {
    it(`${name}: equal to pytrec_eval and ir_measures on every query; ranx apart only where scores tie`, async () => {
      const ref = references.sets[name]
      const measures = Object.keys(ref.measures)
      const ours = await computeRunRows({ runFile, qrels: await readQrels(qrelsFile), measures, noRelevant: 'zero' })
      const rows = rowsOf(ours.side)
      const absent = new Set(ref.absent_from_run)
      const scored = rows.map((r) => r.id).filter((q) => !absent.has(q))
      expect(scored.length).toBe(ref.scored_by_pytrec_eval)
      for (const m of measures) {
        const values = new Map(rows.map((r) => [r.id, r.values.get(m) as number]))
        const tools = ref.measures[m]
        const ourDigest = digest(values, scored)
        expect([m, ourDigest]).toEqual([m, tools.pytrec_eval.sha256])
        expect([m, tools.ir_measures.sha256, tools.ranx_ties_broken.sha256]).toEqual([m, ourDigest, ourDigest])
        expect([
          m,
          tools.ir_measures.differs_from_pytrec_eval,
          tools.ranx_ties_broken.differs_from_pytrec_eval
        ]).toEqual([m, 0, 0])
        // A judged query the run lacks: 0 for us (trec_eval -c), ir_measures and ranx; pytrec_eval does not score it.
        for (const q of absent) expect(values.get(q)).toBe(0)
        if (absent.size > 0) {
          expect([tools.ir_measures.absent_values, tools.ranx.absent_values, tools.pytrec_eval.absent_values]).toEqual([
            [0],
            [0],
            []
          ])
        }
      }
      // ranx's differences are ties: every query where it differs has two documents of one score.
      const tied = tiedQueries(runFile)
      expect(ref.ranx_differs_on.filter((q) => !tied.has(q))).toEqual([])
    })
  }
})
