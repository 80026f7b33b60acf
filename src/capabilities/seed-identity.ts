import type { SeedSides } from '../align/seeds.js'
import { InputError } from '../errors.js'
import type { SideRows } from '../model/rows.js'

/**
 * Refuses a seed counted twice on one side: two files with the same per-query values for every query and metric
 * (the same file given twice, a copy, or the same rows re-serialised) are one training run, and counting them twice
 * would shrink the spread between seeds to zero and meet `min_seeds` with one seed. Byte-identical files are
 * already refused when fetched (src/capabilities/inputs.ts); this is the same rule on the values, which survives
 * reordering, reformatting and renaming.
 */
export function refuseRepeatedSeeds(seeds: SeedSides): void {
  for (const [side, files] of [
    ['baseline', seeds.baseline],
    ['candidate', seeds.candidate]
  ] as const) {
    if (files.length < 2) continue
    const order = files[0].ids
    const seen = new Map<string, SideRows>()
    for (const file of files) {
      const print = fingerprint(file, order)
      const twin = seen.get(print)
      if (twin !== undefined && sameValues(twin, file, order)) {
        throw new InputError(
          { file: file.source },
          `this ${side} seed has the same value as ${twin.source} for every query and metric: it is the same seed given twice`,
          `give each independently trained seed once (a seed is identified by its values, not its file name); the rules count seeds with statistics.min_seeds`
        )
      }
      seen.set(print, file)
    }
  }
}

/** A 52-bit FNV-style hash of the metric names and every value, in the first file's query order (equal rows, equal print). */
function fingerprint(file: SideRows, order: readonly string[]): string {
  const names = [...file.values.keys()].sort()
  let h = 0xcbf29ce4
  let l = 0x84222325
  const bits = new Float64Array(1)
  const words = new Uint32Array(bits.buffer)
  const mix = (w: number): void => {
    l = Math.imul(l ^ w, 0x01000193) >>> 0
    h = Math.imul(h ^ l, 0x01000193) >>> 0
  }
  for (const name of names) {
    for (let c = 0; c < name.length; c++) mix(name.charCodeAt(c))
    const column = file.values.get(name) as Float64Array
    for (const id of order) {
      const row = file.index.get(id)
      bits[0] = row === undefined ? Number.NaN : column[row]
      mix(words[0])
      mix(words[1])
    }
  }
  return `${names.length}:${h.toString(16)}:${l.toString(16)}`
}

function sameValues(a: SideRows, b: SideRows, order: readonly string[]): boolean {
  const names = [...a.values.keys()].sort()
  const other = [...b.values.keys()].sort()
  if (names.join('\u0000') !== other.join('\u0000')) return false
  for (const name of names) {
    const x = a.values.get(name) as Float64Array
    const y = b.values.get(name) as Float64Array
    for (const id of order) {
      const i = a.index.get(id)
      const j = b.index.get(id)
      if (i === undefined || j === undefined) return false
      if (!Object.is(x[i], y[j])) return false
    }
  }
  return true
}
