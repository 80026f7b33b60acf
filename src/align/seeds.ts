import { InputError } from '../errors.js'
import { placeOf, SideRowsBuilder, type SideRows } from '../model/rows.js'
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
 * Query ids and lines come from the side's first file, attributes from every file, which must agree (the exam is the
 * baseline's: the candidate's attributes are never used for slices, only compared with it). A value missing in any seed is missing in the average
 * (queries.missing decides what happens to it, as for one file).
 *
 * Refuses (InputError naming the file and query id) a seed file that does not cover exactly the first file's
 * queries (a repeated id is refused by the reader, as in any rows file) (seeds over different queries cannot be averaged query by query), and a
 * metric some seed files have and another has in no row (its average would be missing for every query, yet the
 * side would still list it, so the "no row has the metric" refusal would not see it). The
 * `binary` metrics are checked to be 0 or 1 in every seed file here, since their averages are shares.
 */
export function averageSeeds(
  files: SideRows[],
  side: 'baseline' | 'candidate',
  binary: ReadonlySet<string> = new Set()
): SideRows {
  if (files.length === 1) return files[0]
  for (const file of files) refuseNonBinary(file, binary)
  const first = files[0]
  refuseUnevenMetrics(files, side)
  for (let f = 1; f < files.length; f++) {
    for (let row = 0; row < first.ids.length; row++) {
      const id = first.ids[row]
      if (!files[f].index.has(id)) {
        throw new InputError(
          { file: files[f].source, queryId: id },
          `this ${side} seed has no row for query ${quote(id)}, which ${placeOf(first, row)} has`,
          `every ${side} seed file must cover the same queries: score each seed on the whole exam`
        )
      }
    }
    files[f].ids.forEach((id, row) => {
      if (!first.index.has(id)) {
        throw new InputError(
          { file: files[f].source, line: files[f].lines[row], queryId: id },
          `query ${quote(id)} is not in the first ${side} seed file ${first.source}`,
          `every ${side} seed file must cover the same queries: score each seed on the whole exam`
        )
      }
    })
  }
  // Each file's row of each of the first file's queries (the files hold the same ids, checked above).
  const rowsIn = files.map((file) => Int32Array.from(first.ids, (id) => file.index.get(id) as number))
  const averaged = new SideRowsBuilder(first.source)
  first.ids.forEach((id, row) => averaged.add(id, first.lines[row]))
  for (const name of first.values.keys()) {
    for (let row = 0; row < first.ids.length; row++) {
      let sum = 0
      let missing = false
      for (let f = 0; f < files.length; f++) {
        const v = (files[f].values.get(name) as Float64Array)[rowsIn[f][row]]
        if (Number.isNaN(v)) missing = true
        else sum += v
      }
      averaged.setValue(row, name, missing ? null : sum / files.length)
    }
  }
  for (const [name, column] of seedAttributes(files, rowsIn, side))
    column.forEach((v, row) => v !== undefined && averaged.setAttr(row, name, v))
  const numericFields = new Set(files.flatMap((f) => [...f.numericFields]))
  const notes = files.flatMap((f) => f.notes)
  notes.push(`${side}: ${files.length} seed files averaged per query (${files.map((f) => f.source).join(', ')})`)
  const attributeFields = new Set(files.flatMap((f) => [...f.attributeFields]))
  return averaged.build({ numericFields, attributeFields, notes })
}

/**
 * Each attribute of the side's queries over all its seed files, in the first file's row order: a query's value is the
 * one every file that gives it gives. Two seed files that give one query different values are refused (naming both),
 * so the pairing compares every seed's attributes with the exam's whatever the order of the files (it compared the
 * first file's alone: a contradiction in a later seed passed or was refused by the order of the arguments).
 */
function seedAttributes(
  files: SideRows[],
  rowsIn: Int32Array[],
  side: 'baseline' | 'candidate'
): Map<string, Array<string | undefined>> {
  const out = new Map<string, Array<string | undefined>>()
  const names = [...new Set(files.flatMap((f) => [...f.attrs.keys()]))]
  for (const name of names) {
    const column = new Array<string | undefined>(rowsIn[0].length).fill(undefined)
    const from = new Int32Array(column.length)
    files.forEach((file, f) => {
      const values = file.attrs.get(name)
      if (values === undefined) return
      for (let row = 0; row < column.length; row++) {
        const v = values[rowsIn[f][row]]
        if (v === undefined) continue
        const seen = column[row]
        if (seen === undefined) {
          column[row] = v
          from[row] = f
        } else if (seen !== v) {
          const other = files[from[row]]
          throw new InputError(
            { file: file.source, line: file.lines[rowsIn[f][row]], queryId: file.ids[rowsIn[f][row]] },
            `this ${side} seed gives query ${quote(file.ids[rowsIn[f][row]])} ${quote(name)} = ${quote(v)}, but ${other.source}:${other.lines[rowsIn[from[row]][row]]} gives ${quote(seen)}`,
            `every ${side} seed file scores the same queries: give each query the same attributes in every seed, or none`
          )
        }
      }
    })
    out.set(name, column)
  }
  return out
}

/** The metrics with a value in some row of `file` (rows hold only the metrics the rules name). */
function metricsOf(file: SideRows): Set<string> {
  return new Set(file.values.keys())
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

/** A metric the rules declare binary must be 0 or 1 in each seed (its seed average is then a share). */
function refuseNonBinary(file: SideRows, binary: ReadonlySet<string>): void {
  for (let row = 0; row < file.ids.length; row++) {
    for (const metric of binary) {
      const v = file.values.get(metric)?.[row]
      if (v !== undefined && !Number.isNaN(v) && v !== 0 && v !== 1) {
        throw new InputError(
          { file: file.source, line: file.lines[row], queryId: file.ids[row] },
          `${metric} = ${v}, but the rules declare it binary (0 or 1)`,
          'write 0 or 1, or drop "binary: true" from the metric'
        )
      }
    }
  }
}
