import { InputError } from '../errors.js'
import type { QueryRow, SideRows } from '../model/rows.js'
import { quote } from '../util/show.js'

/**
 * The files of each side, one per independently trained seed (docs/statistics.md, "Seed replicates"), as read.
 * With one file per side nothing here applies and the gate runs exactly as before.
 */
export interface SeedSides {
  baseline: SideRows[]
  candidate: SideRows[]
}

/**
 * One side's seed files averaged into the rows the pipeline pairs: per query, each metric is the mean over
 * the seeds (summed in file order, as src/stats/seed-bootstrap.ts sums them, so the two agree to the bit).
 * Query ids, lines and attributes come from the side's first file (the exam is the baseline's: the
 * candidate's attributes are never used for slices). A value missing in any seed is missing in the average
 * (queries.missing decides what happens to it, as for one file).
 *
 * Refuses (InputError naming the file and query id) a seed file that repeats a query id or does not cover
 * exactly the first file's queries (seeds over different queries cannot be averaged query by query), and a
 * metric some seed files have and another has in no row (its average would be missing for every query, yet the
 * side would still list it, so the "no row has the metric" refusal would not see it). The
 * `binary` metrics are checked to be 0 or 1 in every seed file here, since their averages are shares.
 */
export function averageSeeds(files: SideRows[], side: 'baseline' | 'candidate', binary: ReadonlySet<string> = new Set()): SideRows {
  if (files.length === 1) return files[0]
  const byId = files.map(indexById)
  for (const file of files) refuseNonBinary(file, binary)
  const first = files[0]
  refuseUnevenMetrics(files, side)
  for (let f = 1; f < files.length; f++) {
    for (const row of first.rows) {
      if (!byId[f].has(row.id)) {
        throw new InputError(
          { file: files[f].source, queryId: row.id },
          `this ${side} seed has no row for query ${quote(row.id)}, which ${first.source}:${row.line} has`,
          `every ${side} seed file must cover the same queries: score each seed on the whole exam`
        )
      }
    }
    for (const row of files[f].rows) {
      if (!byId[0].has(row.id)) {
        throw new InputError(
          { file: files[f].source, line: row.line, queryId: row.id },
          `query ${quote(row.id)} is not in the first ${side} seed file ${first.source}`,
          `every ${side} seed file must cover the same queries: score each seed on the whole exam`
        )
      }
    }
  }
  const rows: QueryRow[] = first.rows.map((row) => {
    const values = new Map<string, number | null>()
    for (const name of row.values.keys()) {
      let sum = 0
      let missing = false
      for (const index of byId) {
        const v = (index.get(row.id) as QueryRow).values.get(name)
        if (v === null || v === undefined) missing = true
        else sum += v
      }
      values.set(name, missing ? null : sum / files.length)
    }
    return { id: row.id, line: row.line, values, attrs: row.attrs }
  })
  const numericFields = new Set(files.flatMap((f) => [...f.numericFields]))
  const notes = files.flatMap((f) => f.notes)
  notes.push(`${side}: ${files.length} seed files averaged per query (${files.map((f) => f.source).join(', ')})`)
  return { source: first.source, rows, numericFields, attributeFields: first.attributeFields, notes }
}

/** The metrics with a value in some row of `file` (rows hold only the metrics the rules name). */
function metricsOf(file: SideRows): Set<string> {
  const names = new Set<string>()
  for (const row of file.rows) for (const name of row.values.keys()) names.add(name)
  return names
}

function refuseUnevenMetrics(files: SideRows[], side: 'baseline' | 'candidate'): void {
  const each = files.map(metricsOf)
  for (let f = 0; f < files.length; f++) {
    for (let g = 0; g < files.length; g++) {
      const lacking = [...each[g]].find((name) => !each[f].has(name))
      if (lacking !== undefined) {
        throw new InputError(
          { file: files[f].source, key: `metrics.${lacking}` },
          `this ${side} seed has no row with the metric "${lacking}", which ${files[g].source} has`,
          `every ${side} seed file must hold the same metrics: score each seed with the same measures`
        )
      }
    }
  }
}

function indexById(file: SideRows): Map<string, QueryRow> {
  const index = new Map<string, QueryRow>()
  for (const row of file.rows) {
    const earlier = index.get(row.id)
    if (earlier !== undefined) {
      throw new InputError(
        { file: file.source, line: row.line, queryId: row.id },
        `query ${quote(row.id)} appears twice in a seed file (first at line ${earlier.line})`,
        'a seed file holds one row per query: remove the repeated row'
      )
    }
    index.set(row.id, row)
  }
  return index
}

/** A metric the rules declare binary must be 0 or 1 in each seed (its seed average is then a share). */
function refuseNonBinary(file: SideRows, binary: ReadonlySet<string>): void {
  for (const row of file.rows) {
    for (const metric of binary) {
      const v = row.values.get(metric)
      if (v !== null && v !== undefined && v !== 0 && v !== 1) {
        throw new InputError({ file: file.source, line: row.line, queryId: row.id }, `${metric} = ${v}, but the rules declare it binary (0 or 1)`, 'write 0 or 1, or drop "binary: true" from the metric')
      }
    }
  }
}
