import { InputError } from '../errors.js'
import { quote } from '../util/show.js'
import { forEachCsvRecord } from './csv.js'
import { forEachJsonRecord } from './json/lines.js'
import { guessRowsFormat } from './sniff.js'

/**
 * Calls `onRecord` for every record of a small exam or answer file of records (judge anchors and labels, a
 * queries file): JSON Lines, or CSV with a header when its name ends in `.csv`. A header naming a column twice,
 * a CSV record with another number of fields, and a JSON line that is not an object are refused with the line;
 * blank lines are skipped. `hint` says what a record looks like.
 */
export async function forEachRecord(file: string, name: string, onRecord: (record: Map<string, unknown>, line: number) => void, hint: string): Promise<void> {
  if (guessRowsFormat(file) === 'csv') {
    let header: string[] | undefined
    await forEachCsvRecord(file, (fields, line) => {
      if (header === undefined) {
        header = fields.map((f) => f.trim())
        const twice = header.find((h, i) => header?.indexOf(h) !== i)
        if (twice !== undefined) throw new InputError({ file: name, line, key: twice }, `the header names ${quote(twice)} twice`, 'name every column once')
        return
      }
      if (fields.length === 1 && fields[0].trim() === '') return
      if (fields.length !== header.length) throw new InputError({ file: name, line }, `${fields.length} fields, but the header has ${header.length}`, 'every record has one field per header column')
      const record = new Map<string, unknown>()
      header.forEach((h, i) => record.set(h, fields[i]))
      onRecord(record, line)
    })
    return
  }
  await forEachJsonRecord(
    file,
    (m, line) => {
      const record = new Map<string, unknown>()
      for (let k = 0; k < m.size; k++) record.set(m.keys[k], m.values[k])
      onRecord(record, line)
    },
    { hint, name }
  )
}
