import { InputError } from '../errors.js'
import { quote } from '../util/show.js'
import { forEachCsvRecord } from './csv.js'
import { forEachJsonRecord } from './json/lines.js'

/**
 * The records of a small exam or answer file (judge anchors and labels, a queries file) as maps of field to value,
 * in its two layouts (src/readers/formats.ts, kind `records`). A header naming a column twice, a CSV record with
 * another number of fields, and a JSON line that is not an object are refused with the line (and `name`, the file as
 * the user knows it); blank lines are skipped.
 */

/** What receives each record, with the line it starts on. */
export type RecordHandler = (record: Map<string, unknown>, line: number) => void

/** The records of a CSV file with a header line. */
export async function forEachCsvMap(file: string, name: string, onRecord: RecordHandler): Promise<void> {
  let header: string[] | undefined
  await forEachCsvRecord(file, (fields, line) => {
    if (header === undefined) {
      header = fields.map((f) => f.trim())
      const twice = header.find((h, i) => header?.indexOf(h) !== i)
      if (twice !== undefined)
        throw new InputError(
          { file: name, line, key: twice },
          `the header names ${quote(twice)} twice`,
          'name every column once'
        )
      return
    }
    if (fields.length === 1 && fields[0].trim() === '') return
    if (fields.length !== header.length)
      throw new InputError(
        { file: name, line },
        `${fields.length} fields, but the header has ${header.length}`,
        'every record has one field per header column'
      )
    const record = new Map<string, unknown>()
    header.forEach((h, i) => record.set(h, fields[i]))
    onRecord(record, line)
  })
}

/** The records of a JSON Lines file (one object per line; `hint` says what a record looks like). */
export async function forEachJsonlMap(
  file: string,
  name: string,
  onRecord: RecordHandler,
  hint: string
): Promise<void> {
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
