import type { GateResult } from '../../decide/result.js'
import type { SeedMetricSummary, SeedsSummary } from './stats.js'
import type { SeedSpread } from '../../stats/seed-bootstrap.js'
import { cells, commas, em, paragraph, row, table, text, words, type Block, type Inline } from '../../model/document.js'
import { digitsFor, fixed, signed } from '../../report/format.js'
import { inPoints, metricOf } from '../../report/words.js'

/**
 * Seed replicates in the reports (docs/statistics.md, "Seed replicates"): the spread between each side's
 * independently trained seeds, and one plain sentence per metric whose gain is smaller than that spread
 * (a difference one lucky seed could produce). Absent from every report without seed files or min_seeds.
 */

/** The sentences shown under the gated checks (plain text: the caller escapes for its format): how the intervals were made, and every gain within the seed spread. */
export function seedSentences(result: GateResult, seeds: SeedsSummary): string[] {
  const out: string[] = []
  const counts = `${seeds.baseline.length} baseline and ${seeds.candidate.length} candidate ${seeds.candidate.length === 1 ? 'seed' : 'seeds'}`
  if (seeds.interval === 'seeds-t') {
    const one = seeds.baseline.length === 1 ? 'baseline' : seeds.candidate.length === 1 ? 'candidate' : null
    const assumed =
      one === null
        ? ''
        : ` The ${one} has one seed: its training variance was not measured and is taken to be the ${one === 'baseline' ? 'candidate' : 'baseline'}'s.`
    out.push(
      `Seed replicates: ${counts}; each value is the mean over a side's seeds, and every interval is a t interval over the seeds' spread and the queries.${assumed}`
    )
  } else if (seeds.twoLevel)
    out.push(
      `Seed replicates: ${counts}; each value is the mean over a side's seeds, and every interval resamples seeds, then queries.`
    )
  else
    out.push(
      `One seed per side: training variance was not measured; the intervals cover query variance only, not another training run.`
    )
  if (seeds.minSeeds !== null && Math.min(seeds.baseline.length, seeds.candidate.length) < seeds.minSeeds) {
    out.push(
      `The rules ask for at least ${seeds.minSeeds} seeds per side (statistics.min_seeds) and ${counts} were given: every check is inconclusive.`
    )
  }
  for (const m of seeds.metrics) if (m.withinSpread) out.push(withinSpreadSentence(result, m))
  return out
}

function withinSpreadSentence(result: GateResult, m: SeedMetricSummary): string {
  const d = digitsOf(result, m)
  const metric = metricOf(result, m.metric)
  // The change and the spread it is compared with, in the report's one unit for the metric (points for a share).
  const points = inPoints(metric)
  const scale = points ? 100 : 1
  const dd = points ? Math.max(1, d - 2) : d
  const unit = points ? ' points' : metric.unit ? ` ${metric.unit}` : ''
  return `The change of ${metric.name} (${signed(m.delta * scale, dd)}${unit}) is smaller than the spread between seeds (standard deviation of the seed means up to ${fixed((m.spread as number) * scale, dd)}${unit}): one lucky or unlucky training run could produce a difference this size.`
}

/** The collapsible section's body: per metric, each side's seed means, their SD and range. */
export function seedsBody(seeds: SeedsSummary, result: GateResult): Block[] {
  const rows: Inline[][] = []
  for (const m of seeds.metrics) {
    const d = digitsOf(result, m)
    const name = text(metricOf(result, m.metric).name)
    for (const [side, s] of [
      ['baseline', m.baseline],
      ['candidate', m.candidate]
    ] as const)
      rows.push(row(name, side, String(s.means.length), meansCell(s, d), sdCell(s, d), rangeCell(s, d)))
  }
  const files = (side: string, list: string[]): Inline => [
    words(`${side}: `),
    ...commas(list.map((f) => [text(f, 120)]))
  ]
  return [
    table(cells('Metric', 'Side', 'Seeds', 'Seed means', 'SD', 'Range'), rows),
    paragraph(
      em(
        words('Files (one per seed, in order) · '),
        ...files('baseline', seeds.baseline),
        words(' · '),
        ...files('candidate', seeds.candidate),
        words('.')
      )
    )
  ]
}

/** The JSON report's `seeds` field (docs/report.md). */
export function seedsJson(seeds: SeedsSummary): Record<string, unknown> {
  return {
    baseline_files: seeds.baseline,
    candidate_files: seeds.candidate,
    min_seeds: seeds.minSeeds,
    interval:
      seeds.interval === 'seeds-t'
        ? 't over seeds and queries: seed-mean variance per side plus query variance, Satterthwaite degrees of freedom'
        : seeds.interval === 'two-level bootstrap'
          ? 'two-level bootstrap: seeds within each side, then queries (shared)'
          : 'queries only (one seed per side)',
    metrics: seeds.metrics.map((m) => ({
      metric: m.metric,
      delta: m.delta,
      baseline: m.baseline,
      candidate: m.candidate,
      spread: m.spread,
      within_spread: m.withinSpread
    }))
  }
}

/** The metric's usual digits, or more when the spread between seeds would otherwise print as 0 (at most 8). */
function digitsOf(result: GateResult, m: SeedMetricSummary): number {
  const d = digitsFor(metricOf(result, m.metric).range, Math.abs(m.baseline.means[0] ?? 0))
  if (m.spread === null || !(m.spread > 0) || !Number.isFinite(m.spread)) return d
  return Math.min(8, Math.max(d, Math.ceil(-Math.log10(m.spread)) + 1))
}
const meansCell = (s: SeedSpread, d: number): string => s.means.map((x) => fixed(x, d)).join(', ')
const sdCell = (s: SeedSpread, d: number): string => (s.sd === null ? '–' : fixed(s.sd, d))
const rangeCell = (s: SeedSpread, d: number): string => `${fixed(s.min, d)} to ${fixed(s.max, d)}`
