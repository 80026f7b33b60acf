import type { GateResult } from '../decide/result.js'
import { POISSON_FROM_UNITS, resamplingLaw as lawOf } from '../stats/resampling.js'

/**
 * How the bootstrap drew its resamples, in words (statistics.method, src/stats/resampling.ts): the method table,
 * the terminal's method line and the JSON report state it, since a Poisson law is another method than the
 * multinomial one. Read from the comparisons themselves, so it says what was done, not what was asked.
 */
export function resamplingWords(result: GateResult): string {
  const { poisson, counts } = resamplingColumns(result)
  const method = result.rules.statistics.method ?? 'auto'
  const setting =
    method === 'auto'
      ? `statistics.method auto: Poisson from ${POISSON_FROM_UNITS.toLocaleString('en-US')} queries or clusters`
      : `statistics.method ${method}`
  if (!result.comparisons.some((c) => c.resampling !== null)) {
    // statistics.interval auto: every interval in closed form; only the randomization test draws, and its law (fair,
    // independent signs) is the same either way: the stream of signs is what the setting chooses.
    const signs =
      resamplingLaw(result) === 'poisson'
        ? 'from md5 of each query (or cluster) id and the seed'
        : 'from the seeded stream'
    return `no bootstrap drawn: every interval is in closed form (statistics.interval auto); the randomization test's signs ${signs} (${setting})`
  }
  if (poisson.length === 0)
    return `multinomial: queries (or clusters) drawn with replacement within each stratum (${setting})`
  const others =
    counts.length === 0 ? '' : `; ${counts.join(', ')} multinomial, drawn by counts of their few distinct values`
  return `Poisson(1) weights per query (or cluster) and resample, from md5 of its id and the seed, for ${poisson.join(', ')}${others} (${setting}; docs/scale.md)`
}

/** The short form for one line: "multinomial" or "Poisson-weighted". */
export function resamplingShort(result: GateResult): string {
  return resamplingColumns(result).poisson.length === 0 ? '' : ' (Poisson-weighted)'
}

/** The metrics each law drew, over all queries (the slices are drawn the same way). */
function resamplingColumns(result: GateResult): { poisson: string[]; counts: string[] } {
  const all = result.comparisons.filter((c) => c.slice.length === 0)
  return {
    poisson: all.filter((c) => c.resampling === 'poisson').map((c) => c.metric),
    counts: all.filter((c) => c.resampling !== 'poisson').map((c) => c.metric)
  }
}

/**
 * The law of the run (for the JSON report, and the randomization test's signs even when no bootstrap is drawn): the
 * one its units chose (statistics.method; multinomial below 50,000 under auto). Every bootstrap drawn and the
 * randomization test's signs follow it; each comparison's own `resampling` says how its bootstrap was drawn (by
 * counts for a column with few values; null when none was).
 */
export function resamplingLaw(result: GateResult): 'multinomial' | 'poisson' {
  const cluster = result.rules.statistics.cluster
  const values = cluster === undefined ? undefined : result.table.attrs.get(cluster)
  return lawOf(result.rules.statistics.method, values === undefined ? result.table.ids.length : new Set(values).size)
}
