/**
 * Metric invariants, checked on random judgments and runs written to temp files and scored by
 * computeRunRows (the path the gate uses): ratio measures lie in [0, 1]; the order of a run's lines does not
 * matter (ranking is by score, then document id, as trec_eval); a non-relevant document added below the
 * cutoff changes nothing; AP <= 1 and AP = 1 for a perfect ranking; nDCG of the ideal ranking is 1.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { computeRunRows } from '../../src/metrics/index.js'
import { tempDir } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

const RATIO = [
  'P@1',
  'P@5',
  'R@5',
  'R@20',
  'R_cap@5',
  'Success@3',
  'RR',
  'RR@3',
  'AP',
  'AP@5',
  'nDCG',
  'nDCG@5',
  'nDCG(gain=exp)@10',
  'Rprec',
  'Bpref',
  'Judged@5'
]
const RUNS = Number(process.env.RG_PROPERTY_RUNS ?? 60)
const dir = tempDir('rg-prop-metrics-')
let fileNo = 0

interface Doc {
  doc: string
  grade: number | null // null = unjudged
  score: number
}
type Query = { id: string; docs: Doc[] }

/** One query: up to 25 documents, distinct ids, grades 0..3 or unjudged, scores with deliberate ties. */
const queryArb = (id: string) =>
  fc
    .uniqueArray(
      fc.record({
        doc: fc.stringMatching(/^d[0-9a-z]{1,3}$/),
        grade: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
        score: fc.integer({ min: -20, max: 20 }).map((x) => x / 4)
      }),
      {
        minLength: 1,
        maxLength: 25,
        selector: (d) => d.doc
      }
    )
    .map((docs): Query => ({ id, docs }))
const queriesArb = fc
  .integer({ min: 1, max: 4 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => queryArb(`q${i + 1}`))))

function write(name: string, text: string): string {
  const file = path.join(dir, `${fileNo++}-${name}`)
  writeFileSync(file, text)
  return file
}
const qrelsText = (qs: Query[]) =>
  qs.flatMap((q) => q.docs.filter((d) => d.grade !== null).map((d) => `${q.id} 0 ${d.doc} ${d.grade}\n`)).join('') ||
  'qX 0 dX 0\n'
const runLines = (qs: Query[]) => qs.flatMap((q) => q.docs.map((d, i) => `${q.id} Q0 ${d.doc} ${i + 1} ${d.score} t`))

async function score(qs: Query[], lines: string[], measures = RATIO): Promise<Map<string, Map<string, number | null>>> {
  const { side } = await computeRunRows({
    runFile: write('run.txt', lines.join('\n') + '\n'),
    qrelsFile: write('qrels.txt', qrelsText(qs)),
    measures,
    noRelevant: 'zero'
  })
  return new Map(rowsOf(side).map((r) => [r.id, r.values]))
}

describe('metric invariants (fast-check, temp files)', () => {
  it('every ratio measure lies in [0, 1]', async () => {
    await fc.assert(
      fc.asyncProperty(queriesArb, async (qs) => {
        for (const values of (await score(qs, runLines(qs))).values()) {
          for (const [name, v] of values) {
            if (!(typeof v === 'number' && v >= 0 && v <= 1)) throw new Error(`${name} = ${v}`)
          }
        }
      }),
      { numRuns: RUNS }
    )
  })

  it('permuting the run lines changes nothing (ties included)', async () => {
    await fc.assert(
      fc.asyncProperty(queriesArb, fc.infiniteStream(fc.nat()), async (qs, rand) => {
        const lines = runLines(qs)
        const shuffled = [...lines]
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = rand.next().value % (i + 1)
          ;[shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]]
        }
        expect(await score(qs, shuffled)).toEqual(await score(qs, lines))
      }),
      { numRuns: RUNS }
    )
  })

  it('adding a non-relevant document below the cutoff changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(queriesArb, fc.boolean(), async (qs, judgedZero) => {
        // Only queries that already fill the cutoff (5) get the extra document, scored below all others.
        const measures = ['P@5', 'R@5', 'nDCG@5', 'AP@5', 'RR@5', 'Success@5', 'Judged@5', 'AP', 'nDCG', 'RR', 'Bpref']
        const extended = qs.map((q) =>
          q.docs.length >= 5
            ? { ...q, docs: [...q.docs, { doc: 'zz-extra', grade: judgedZero ? 0 : null, score: -1000 }] }
            : q
        )
        // The judgments include the extra document (judged 0, or not at all) in both runs, so only the run differs.
        const qrelsFile = write('qrels.txt', qrelsText(extended))
        const run = async (lines: string[]) => {
          const { side } = await computeRunRows({
            runFile: write('run.txt', lines.join('\n') + '\n'),
            qrelsFile,
            measures,
            noRelevant: 'zero'
          })
          return new Map(rowsOf(side).map((r) => [r.id, r.values]))
        }
        expect(await run(runLines(extended))).toEqual(await run(runLines(qs)))
      }),
      { numRuns: RUNS }
    )
  })

  it('AP <= 1 always, and AP = nDCG = 1 for the ideal ranking', async () => {
    await fc.assert(
      fc.asyncProperty(queriesArb, async (qs) => {
        // Ideal: every judged document, highest grade first, strictly decreasing scores.
        const ideal = qs.map((q) => {
          const judged = q.docs
            .filter((d) => d.grade !== null)
            .sort((x, y) => (y.grade as number) - (x.grade as number) || (x.doc < y.doc ? -1 : 1))
          return { ...q, docs: judged.map((d, i) => ({ ...d, score: 1000 - i })) }
        })
        const lines = runLines(ideal)
        if (lines.length === 0) return
        const values = await score(qs, lines, ['AP', 'nDCG', 'nDCG(gain=exp)', 'NumRel'])
        for (const q of ideal) {
          const v = values.get(q.id)
          if (v === undefined) continue
          const relevant = (v.get('NumRel') as number) > 0
          expect(v.get('AP')).toBe(relevant ? 1 : 0)
          // nDCG: 1 when some grade is positive (gain > 0), else 0 (trec_eval's 0/0 convention)
          const gain = q.docs.some((d) => (d.grade as number) > 0)
          expect(v.get('nDCG')).toBeCloseTo(gain ? 1 : 0, 12)
          expect(v.get('nDCG(gain=exp)')).toBeCloseTo(gain ? 1 : 0, 12)
        }
        for (const vs of (await score(qs, runLines(qs), ['AP'])).values())
          expect(vs.get('AP') as number).toBeLessThanOrEqual(1)
      }),
      { numRuns: RUNS }
    )
  })
})
