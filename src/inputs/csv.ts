import { InputError } from '../errors.js'
import { forEachLine, type LineOptions } from './lines.js'

/** One CSV record with the line its first character is on. */
export type CsvRecordHandler = (fields: string[], line: number) => void

/**
 * Streams an RFC 4180 CSV file record by record: quoted fields may hold commas, doubled quotes and line
 * breaks (a record can span lines; it is reported at the line where it starts). An unterminated quote or
 * text after a closing quote is refused with the line.
 */
export async function forEachCsvRecord(file: string, onRecord: CsvRecordHandler, options: LineOptions = {}): Promise<void> {
  let fields: string[] = []
  let field = ''
  let inQuotes = false
  let afterQuote = false
  let startLine = 0
  await forEachLine(
    file,
    (text, line) => {
      if (!inQuotes) {
        startLine = line
        fields = []
        field = ''
        afterQuote = false
        if (text === '') return
      } else {
        field += '\n'
      }
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i)
        if (inQuotes) {
          if (c === 0x22) {
            if (text.charCodeAt(i + 1) === 0x22) {
              field += '"'
              i++
            } else {
              inQuotes = false
              afterQuote = true
            }
          } else {
            field += text[i]
          }
        } else if (c === 0x2c) {
          fields.push(field)
          field = ''
          afterQuote = false
        } else if (afterQuote) {
          throw new InputError({ file, line }, 'text after a closing quote in a CSV field', 'quote the whole field and double any quote inside it ("")')
        } else if (c === 0x22) {
          if (field !== '') {
            throw new InputError({ file, line }, 'a quote in the middle of an unquoted CSV field', 'quote the whole field and double any quote inside it ("")')
          }
          inQuotes = true
        } else {
          field += text[i]
        }
      }
      if (inQuotes) return
      fields.push(field)
      onRecord(fields, startLine)
    },
    options
  )
  if (inQuotes) {
    throw new InputError({ file, line: startLine }, 'a quoted CSV field is never closed (the file ends inside quotes)', 'the file is probably truncated')
  }
}
