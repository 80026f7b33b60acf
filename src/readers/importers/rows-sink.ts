import { InputError, type Where } from '../../errors.js'
import { SideRowsBuilder, type SideRows } from '../../model/rows.js'
import { checkAttributeLength, checkQueryIdLength, rememberField } from '../field-caps.js'
import { nonFiniteRefusal, parseDecimal, parseMetricCell } from '../numbers.js'
import { quote } from '../../util/show.js'

/**
 * Collects the per-query rows every reader produces: a field the rules name as a metric must be a finite number
 * (null or an empty cell is a missing value, left to the pairing stage to refuse or fill); other strings and
 * booleans are attributes; other numbers are kept as attributes too and listed as numeric fields (so `init` and
 * "did you mean" see them). Lists and objects are skipped and counted in a note (ragas' `retrieved_contexts`).
 * Duplicate ids are refused all together, each with its lines; a repeated id's record is still checked (a `row` of
 * undefined: checked, not kept). `own`: the gate's own JSON Lines / CSV rows (src/readers/plain-rows.ts), whose id
 * is `query_id` as a JSON string and whose header names every field (src/readers/importers/records-rows.ts).
 */

/** How many offending ids an error lists before it says "and N more". */
const LIST_LIMIT = 20

export class RowsSink {
  private readonly rows: SideRowsBuilder
  /** Labels of rows that have no line (records of a JSON document, e.g. "testCases[3]"), for the duplicate refusal. */
  private readonly labels = new Map<number, string>()
  private readonly duplicates: string[] = []
  private duplicateCount = 0
  private readonly skipped = new Map<string, number>()
  readonly numericFields = new Set<string>()
  readonly attributeFields = new Set<string>()
  readonly notes: string[] = []
  /** The first repeated id and its two lines (the gate's own rows tell a run by it). */
  firstRepeat: string | undefined

  constructor(
    readonly file: string,
    readonly metricFields: ReadonlySet<string>,
    /** Attributes to keep (those the rules use); others are only named in the hints. Undefined keeps all (`init`). */
    private readonly keepAttributes?: ReadonlySet<string>,
    /** The gate's own rows (see the class comment): only how the id and the header are read differ. */
    readonly own = false
  ) {
    this.rows = new SideRowsBuilder(file)
  }

  /** Where row `row` is, for messages (its line, undefined for a record of a JSON document), and then `where`. */
  private at(row: number | undefined, where: Where): Where {
    if (row === undefined) return { file: this.file, ...where }
    return { file: this.file, line: this.rows.lineOf(row) || undefined, queryId: this.rows.idOf(row), ...where }
  }

  /** The query id of row `row`. */
  idOf(row: number): string {
    return this.rows.idOf(row)
  }

  /** Keeps an attribute value the rules use (capped), or only remembers the field's name for hints. */
  private attribute(
    row: number | undefined,
    key: string,
    text: string,
    at: { names: Set<string>; where: Where }
  ): void {
    if (this.keepAttributes === undefined || this.keepAttributes.has(key)) {
      if (this.keepAttributes !== undefined) checkAttributeLength(key, text, this.at(row, at.where))
      if (row !== undefined) this.rows.setAttr(row, key, text)
      at.names.add(key)
    } else {
      rememberField(at.names, key)
    }
  }

  /**
   * Starts a row at `line` (0 for a record of a JSON document, then `label` says which, e.g. "testCases[3]");
   * returns the row's number, or undefined (and records the repeat) when the id was seen before.
   */
  start(id: string, line: number, label = `line ${line}`): number | undefined {
    if (id === '')
      throw new InputError(
        { file: this.file, line: line || undefined, key: line ? undefined : label },
        'the query id is empty',
        'every row needs a non-empty query id'
      )
    checkQueryIdLength(id, { file: this.file, line: line || undefined, key: line ? undefined : label })
    const seen = this.rows.rowOf(id)
    if (seen !== undefined) {
      const first = this.rows.lineOf(seen)
      if (this.duplicateCount++ === 0) this.firstRepeat = `query ${quote(id)} on lines ${first} and ${line}`
      // two lines: "lines 2 and 4"; a record of a JSON document by its label ("testCases[3]")
      const lines =
        first > 0 && line > 0
          ? `lines ${first} and ${line}`
          : `${this.labels.get(seen) ?? `line ${first}`} and ${label}`
      if (this.duplicates.length < LIST_LIMIT) this.duplicates.push(`${quote(id)} (${lines})`)
      return undefined
    }
    const row = this.rows.add(id, line)
    if (label !== `line ${line}`) this.labels.set(row, label)
    return row
  }

  /** A JSON value of field `key` (numbers, strings, booleans, null; lists and objects are counted and skipped). */
  value(row: number | undefined, key: string, value: unknown, where: Where = {}): void {
    // where a refusal stands, made only for one (this runs once per value of every row)
    const at = (): Where => this.at(row, where)
    if (this.metricFields.has(key)) {
      this.numericFields.add(key)
      if (value === null || value === undefined) {
        if (row !== undefined) this.rows.setValue(row, key, null)
      } else if (typeof value === 'number') {
        if (!Number.isFinite(value)) throw nonFiniteRefusal(at(), key, value)
        if (row !== undefined) this.rows.setValue(row, key, value)
      } else {
        const string = typeof value === 'string'
        const kind = string ? `a string (${quote(value, 40)})` : Array.isArray(value) ? 'an array' : typeof value
        const hint = `write metric values as JSON numbers${string ? ' without quotes' : ''}`
        throw new InputError(at(), `${quote(key)} is ${kind}, not a number`, hint)
      }
      return
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      // NaN in a field the rules do not read is not read; as a label the rules slice by it is refused.
      if (this.keepAttributes?.has(key) === true) throw nonFiniteRefusal(at(), key, value)
      rememberField(this.numericFields, key)
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const names = typeof value === 'number' ? this.numericFields : this.attributeFields
      this.attribute(row, key, String(value), { names, where })
    } else if (value !== null && value !== undefined) {
      this.skipped.set(key, (this.skipped.get(key) ?? 0) + 1)
    }
  }

  /**
   * A value a JSON reader found as a token that is not a number: `null` (a missing value, as in {@link value}) or
   * Python's `NaN` / `Infinity` / `-Infinity`, refused in a metric field and not read in any other.
   */
  token(row: number, key: string, token: 'null' | 'NaN' | 'Infinity' | '-Infinity', where: Where = {}): void {
    if (token === 'null') return this.value(row, key, null, where)
    if (this.metricFields.has(key)) throw nonFiniteRefusal(this.at(row, where), key, token)
    rememberField(this.numericFields, key)
  }

  /**
   * A CSV cell of column `key`: parsed as a number for metric columns; kept as text otherwise (the gate's own rows
   * name their fields by the header, the importers' by the cells).
   */
  cell(row: number | undefined, key: string, text: string, where: Where = {}): void {
    if (this.metricFields.has(key)) {
      this.numericFields.add(key)
      const value = parseMetricCell(text, key, () => this.at(row, where))
      if (row !== undefined) this.rows.setValue(row, key, value)
      return
    }
    const trimmed = text.trim()
    // an empty cell (pandas' NaN) says nothing about the column's type
    const names =
      trimmed === '' ? undefined : parseDecimal(trimmed) !== undefined ? this.numericFields : this.attributeFields
    if (names !== undefined) this.attribute(row, key, text, { names, where })
    else if (row !== undefined && (this.keepAttributes === undefined || this.keepAttributes.has(key)))
      this.rows.setAttr(row, key, text)
  }

  /** Refuses duplicates and an empty file; returns the rows with the notes (skipped fields counted). */
  finish(emptyHint: string): SideRows {
    if (this.duplicateCount > 0) {
      const more = this.duplicateCount - this.duplicates.length
      throw new InputError(
        { file: this.file },
        `duplicate query ids: ${this.duplicates.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
        'each query must appear once per file; remove the repeats or give them distinct ids'
      )
    }
    if (this.rows.size === 0) throw new InputError({ file: this.file }, 'has no rows', emptyHint)
    const notes = [...this.notes]
    for (const key of [...this.skipped.keys()].sort()) {
      const n = this.skipped.get(key) as number
      notes.push(
        `${this.file}: field ${quote(key)} skipped in ${n} ${n === 1 ? 'row' : 'rows'} (a list or object, not a number or label)`
      )
    }
    // a field seen as a number in some rows and as text in others is an attribute, not a metric candidate
    for (const key of this.attributeFields) if (!this.metricFields.has(key)) this.numericFields.delete(key)
    return this.rows.build({ numericFields: this.numericFields, attributeFields: this.attributeFields, notes })
  }
}
