import type { SeedSides } from '../../align/seeds.js'
import type { StatisticsRules } from '../../config/types.js'
import { InputError } from '../../errors.js'
import type { SideRows } from '../../model/rows.js'
import { SPREAD_TOLERANCE } from '../../stats/reliability.js'

/**
 * How many seed files a side may give, and when two are one seed. The design is the rules' (statistics.seeds): an
 * answer that brings more or fewer files than declared is refused, so the number of files can never choose the
 * interval (issue 32: a second, nearly identical file used to switch a check to the t over seeds and pass it).
 */
export function refuseUndeclaredSeeds(statistics: StatisticsRules, seeds: SeedSides, rulesFile: string): void {
  const declared = statistics.seeds
  for (const side of ['baseline', 'candidate'] as const) {
    const given = seeds[side].length
    const expected = declared?.[side] ?? 1
    if (given === expected) continue
    throw new InputError(
      { file: rulesFile, key: 'statistics.seeds' },
      declared === undefined
        ? `${given} ${side} files were given, but the rules declare no seed replicates (one file per side)`
        : `the rules declare ${expected} ${side} ${expected === 1 ? 'seed' : 'seeds'} (statistics.seeds) and ${given} ${side} ${given === 1 ? 'file was' : 'files were'} given`,
      declared === undefined
        ? `give one rows file per side, or declare the seeds before the results: statistics: { seeds: { baseline: ${seeds.baseline.length}, candidate: ${seeds.candidate.length} } }`
        : `give exactly ${expected} ${side} ${expected === 1 ? 'file' : 'files'}, one per independently trained seed`
    )
  }
}

/**
 * Refuses a seed counted twice on one side: two files whose values agree for every query and metric to within
 * {@link SPREAD_TOLERANCE} of the metric's scale (its range, or the largest value seen) are one training run. The
 * same file given twice, a copy, the same rows re-serialised or nudged by rounding noise would shrink the spread
 * between seeds to nothing and meet `min_seeds` with one seed. Byte-identical files are already refused when
 * fetched (src/capabilities/inputs.ts); this is the same rule on the values.
 */
export function refuseRepeatedSeeds(seeds: SeedSides, ranges: ReadonlyMap<string, number> = new Map()): void {
  for (const [side, files] of [
    ['baseline', seeds.baseline],
    ['candidate', seeds.candidate]
  ] as const) {
    if (files.length < 2) continue
    const order = files[0].ids
    for (let j = 1; j < files.length; j++) {
      for (let i = 0; i < j; i++) {
        if (!sameSeed(files[i], files[j], { order, ranges })) continue
        throw new InputError(
          { file: files[j].source },
          `this ${side} seed agrees with ${files[i].source} for every query and metric (to ${SPREAD_TOLERANCE} of the metric's scale): it is the same seed given twice`,
          `give each independently trained seed once (a seed is identified by its values, not its file name); the rules declare seeds with statistics.seeds`
        )
      }
    }
  }
}

/** What two seed files are compared on: the first file's query order and the metrics' range widths. */
interface SeedComparison {
  order: readonly string[]
  ranges: ReadonlyMap<string, number>
}

function sameSeed(a: SideRows, b: SideRows, by: SeedComparison): boolean {
  const names = [...a.values.keys()].sort()
  const other = [...b.values.keys()].sort()
  if (names.join('\u0000') !== other.join('\u0000')) return false
  for (const name of names) {
    const x = a.values.get(name) as Float64Array
    const y = b.values.get(name) as Float64Array
    let scale = by.ranges.get(name) ?? 0
    if (!by.ranges.has(name)) for (const id of by.order) scale = Math.max(scale, Math.abs(x[a.index.get(id) ?? 0]))
    const tolerance = SPREAD_TOLERANCE * scale
    for (const id of by.order) {
      const i = a.index.get(id)
      const j = b.index.get(id)
      if (i === undefined || j === undefined) return false
      const u = x[i]
      const v = y[j]
      if (Object.is(u, v)) continue
      if (!(Math.abs(u - v) <= tolerance)) return false
    }
  }
  return true
}
