/** Small builders shared by the statistics tests (not a test file itself). */
import type { PairedTable } from '../../src/align/pair.js'
import type { StatisticsRules } from '../../src/config/types.js'
import { sideFromRows, type QueryRow, type SideRows } from '../../src/model/rows.js'
import { bootstrapPlan, type ResampleDraw } from '../../src/stats/bootstrap.js'
import { buildDesign, type Design } from '../../src/stats/design.js'
import { signFlipPlan, type PatternDraw, type Randomization } from '../../src/stats/randomization.js'
import { SYNC_RUNNER, type KernelRunner } from '../../src/stats/threads.js'

export function statistics(over: Partial<StatisticsRules> = {}): StatisticsRules {
  return {
    confidence: 0.95,
    resamples: 2000,
    seed: '1',
    interval: 'percentile',
    permutations: 2000,
    cluster: undefined,
    clusterWeighting: 'query',
    weights: undefined,
    multiplicity: 'none',
    ...over
  }
}

/** A paired table holding only attributes (buildDesign reads nothing else). */
export function tableOf(n: number, attrs: Record<string, string[]> = {}): PairedTable {
  return {
    ids: Array.from({ length: n }, (_, i) => `q${String(i).padStart(5, '0')}`),
    metrics: new Map(),
    attrs: new Map(Object.entries(attrs)),
    coverage: {
      baselineRows: n,
      candidateRows: n,
      paired: n,
      onlyInBaseline: [],
      onlyInCandidate: [],
      candidateOnlyIgnored: 0,
      attributes: { names: Object.keys(attrs).sort(), candidateValuesCompared: 0 },
      filled: [],
      missingPolicy: 'error',
      runs: { baseline: null, candidate: null },
      notes: []
    }
  }
}

/** The design of every query of the given columns. */
export function designOf(
  columns: number[][],
  attrs: Record<string, string[]> = {},
  over: Partial<StatisticsRules> = {}
): Design {
  const n = columns[0].length
  const members = Int32Array.from({ length: n }, (_, i) => i)
  return buildDesign(
    tableOf(n, attrs),
    members,
    columns.map((c) => Float64Array.from(c)),
    { statistics: statistics(over) }
  )
}

/** One side's rows, as the readers would produce them. */
export function sideOf(
  source: string,
  rows: Array<{ id: string; values: Record<string, number>; attrs?: Record<string, string> }>
): SideRows {
  const out: QueryRow[] = rows.map((r, i) => ({
    id: r.id,
    line: i + 1,
    values: new Map(Object.entries(r.values)),
    attrs: new Map(Object.entries(r.attrs ?? {}))
  }))
  const numeric = new Set<string>()
  const attributes = new Set<string>()
  for (const r of rows) {
    Object.keys(r.values).forEach((k) => numeric.add(k))
    Object.keys(r.attrs ?? {}).forEach((k) => attributes.add(k))
  }
  return sideFromRows(source, out, { numericFields: numeric, attributeFields: attributes, notes: [] })
}

/** Deterministic pseudo-data for tests (no Math.random): mulberry32, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Every column's bootstrap resamples, sorted: a {@link bootstrapPlan} run to the end. */
export function bootstrapDistribution(
  design: Design,
  draw: ResampleDraw,
  runner: KernelRunner = SYNC_RUNNER
): Float64Array[] {
  const plan = bootstrapPlan(design, draw)
  runner.run(plan.jobs)
  return plan.finish().map((column) => column.sort())
}

/** The sign-flip test of every column: a {@link signFlipPlan} run to the end. */
export function signFlipTest(design: Design, draw: PatternDraw, runner: KernelRunner = SYNC_RUNNER): Randomization {
  const plan = signFlipPlan(design, draw)
  runner.run(plan.jobs)
  return plan.finish()
}
