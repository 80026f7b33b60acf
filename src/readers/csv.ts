import { InputError } from '../errors.js'
import { quote } from '../util/show.js'
import { forEachLine, MAX_LINE_BYTES, type LineOptions } from './lines.js'

/** One CSV record with the line its first character is on. */
export type CsvRecordHandler = (fields: string[], line: number) => void

/**
 * Longest CSV record, in bytes, line breaks inside quoted fields included. A record spanning lines would
 * otherwise escape the line-length cap: a quote left open at line 2 of a 600 MB file made the reader keep
 * the whole rest of the file as one field (V8 aborted at 4.3 GB). Same figure as the line cap, since a
 * record is what a line is for the other readers.
 */
const MAX_RECORD_BYTES = MAX_LINE_BYTES

export interface CsvOptions extends LineOptions {
  /** Override {@link MAX_RECORD_BYTES} (tests use a small cap); defaults to `maxLineBytes` when that is given. */
  maxRecordBytes?: number
}

const QUOTE = 0x22
const COMMA = 0x2c
/** Pieces joined into one string at a time: a field of 16 million empty lines is 4,096 strings, not 16 million. */
const RUN = 4096

/**
 * The text of one field, appended in slices: a run of up to {@link RUN} pieces is joined into one flat string,
 * so memory stays near the field's size even when it is made of millions of tiny pieces, and no piece is
 * copied more than twice (linear time, unlike appending a character at a time).
 */
class FieldText {
  private readonly runs: string[] = []
  private readonly run: string[] = []

  push(piece: string): void {
    this.run.push(piece)
    if (this.run.length === RUN) {
      this.runs.push(this.run.join(''))
      this.run.length = 0
    }
  }

  /** The field so far, and a fresh start. */
  take(): string {
    const text =
      this.runs.length === 0
        ? this.run.length === 1
          ? this.run[0]
          : this.run.join('')
        : this.runs.join('') + this.run.join('')
    this.clear()
    return text
  }

  clear(): void {
    this.runs.length = 0
    this.run.length = 0
  }
}

/**
 * Streams an RFC 4180 CSV file record by record: quoted fields may hold commas, doubled quotes and line
 * breaks (a record can span lines; it is reported at the line where it starts). An unterminated quote or
 * text after a closing quote is refused with the line, and a record longer than {@link MAX_RECORD_BYTES}
 * at the line where it starts. Fields are built from slices of each line (joined once per field), never a
 * character at a time, so the cost is linear in the record and memory about twice its size.
 */
export async function forEachCsvRecord(
  file: string,
  onRecord: CsvRecordHandler,
  options: CsvOptions = {}
): Promise<void> {
  const scanner = new CsvRecordScanner(
    file,
    options.maxRecordBytes ?? options.maxLineBytes ?? MAX_RECORD_BYTES,
    onRecord
  )
  await forEachLine(file, (text, line, bytes) => scanner.line(text, line, bytes), options)
  scanner.end()
}

/**
 * A table's header line: its names trimmed, each non-empty and given once, or the refusal with the line (an empty
 * first name is allowed with `pandasIndex`: `df.to_csv` writes its row index under no name).
 */
export function csvTableHeader(fields: string[], where: { file: string; line: number }, pandasIndex = false): string[] {
  const header = fields.map((f) => f.trim())
  const seen = new Set<string>()
  header.forEach((name, c) => {
    if (name === '' && !(pandasIndex && c === 0))
      throw new InputError(where, `the header has an empty column name (column ${c + 1})`, 'name every column')
    if (seen.has(name))
      throw new InputError(where, `the header names column ${quote(name)} twice`, 'column names must be unique')
    seen.add(name)
  })
  return header
}

/** The state of {@link forEachCsvRecord} between lines: the record so far, and whether a quoted field is open. */
class CsvRecordScanner {
  private fields: string[] = []
  private readonly pieces = new FieldText()
  private inQuotes = false
  private afterQuote = false
  private startLine = 0
  private recordBytes = 0

  constructor(
    private readonly file: string,
    private readonly cap: number,
    private readonly onRecord: CsvRecordHandler
  ) {}

  /** One line of the file: a record, its start, or the next line of a quoted field. */
  line(text: string, line: number, bytes: number): void {
    if (!this.inQuotes) {
      this.startLine = line
      this.fields = []
      this.pieces.clear()
      this.afterQuote = false
      this.recordBytes = 0
      if (text === '') return
    } else {
      this.pieces.push('\n')
    }
    this.recordBytes += bytes + 1
    if (this.recordBytes > this.cap + 1) {
      throw new InputError(
        { file: this.file, line: this.startLine },
        `a CSV record (a quoted field spanning lines) is longer than ${this.cap} bytes (the record cap)`,
        'a quote is probably left open: close it, or double any quote inside a quoted field ("")'
      )
    }
    if (!this.scan(text, line)) return // the field goes on at the next line
    this.fields.push(this.pieces.take())
    this.onRecord(this.fields, this.startLine)
  }

  /** Scans a line into fields; false when it ends inside a quoted field. */
  private scan(text: string, line: number): boolean {
    const file = this.file
    const pieces = this.pieces
    const n = text.length
    // the first quote at or after i (-1: none left on this line), advanced lazily so the scan stays linear
    let quoteAt = text.indexOf('"')
    const nextQuote = (i: number): number => {
      if (quoteAt >= 0 && quoteAt < i) quoteAt = text.indexOf('"', i)
      return quoteAt
    }
    let i = 0
    for (;;) {
      if (this.inQuotes) {
        const q = nextQuote(i)
        if (q < 0) {
          if (i < n) pieces.push(text.slice(i))
          return false
        }
        if (q > i) pieces.push(text.slice(i, q))
        if (text.charCodeAt(q + 1) === QUOTE) {
          pieces.push('"')
          i = q + 2
        } else {
          this.inQuotes = false
          this.afterQuote = true
          i = q + 1
        }
        continue
      }
      if (this.afterQuote) {
        if (i === n) return true
        if (text.charCodeAt(i) !== COMMA) {
          throw new InputError(
            { file, line },
            'text after a closing quote in a CSV field',
            'quote the whole field and double any quote inside it ("")'
          )
        }
        this.fields.push(pieces.take())
        this.afterQuote = false
        i++
        continue
      }
      // at the start of a field
      if (i < n && text.charCodeAt(i) === QUOTE) {
        this.inQuotes = true
        i++
        continue
      }
      const comma = text.indexOf(',', i)
      const stop = comma < 0 ? n : comma
      const q = nextQuote(i)
      if (q >= 0 && q < stop) {
        throw new InputError(
          { file, line },
          'a quote in the middle of an unquoted CSV field',
          'quote the whole field and double any quote inside it ("")'
        )
      }
      pieces.push(text.slice(i, stop))
      if (comma < 0) return true
      this.fields.push(pieces.take())
      i = comma + 1
    }
  }

  /** The end of the file: refused inside a quoted field. */
  end(): void {
    if (this.inQuotes) {
      throw new InputError(
        { file: this.file, line: this.startLine },
        'a quoted CSV field is never closed (the file ends inside quotes)',
        'the file is probably truncated'
      )
    }
  }
}
