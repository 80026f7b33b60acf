import { InputError } from '../../errors.js'
import type { Qrels } from '../../model/qrels.js'
import type { SideRows } from '../../model/rows.js'
import { isBeirHeader, readBeirQrels } from './beir.js'
import { deepevalToRows, looksLikeDeepeval, readDeepevalRows } from './deepeval.js'
import { isMeasureLine, readMeasureRows } from './ir-measures.js'
import { readPytrecEvalRows } from './pytrec-eval.js'
import { readRanxQrels } from './ranx.js'
import { isLz4Head, readRanxLz4Qrels } from './ranx-lz4.js'
import { looksLikeRagas, RAGAS_COLUMNS } from './ragas.js'
import { columnsOrient, readRecordsRows, recordsToRows } from './records-rows.js'
import { refuseNotPerQuery } from './not-per-query.js'
import { refuseUnrecognisedJson, refuseWholeJsonDocument, ROWS_JSON_SHAPES } from './unrecognised-json.js'
import { longColumns, readLongRows, type LongLayout } from './long-form.js'
import { RUN_WITHOUT_JUDGMENTS } from '../../util/input-hints.js'
import { isObject, parseJsonWithNonFinite, readJsonDocument, tryJson } from '../json/document.js'
import { firstChar, firstContentLine, firstValueStart, readHead, recordsLayout } from '../sniff.js'

/**
 * Importers: the outputs of the tools teams already evaluate with, read as they are. Each format is
 * detected from the file's content (or named with `--format`) and turned into the same per-query rows,
 * judgments or run blocks the built-in readers produce, so every later stage (pairing, statistics,
 * reports) is unchanged. The built-in readers call in here first and fall back to their own formats when
 * no importer claims the file.
 */

/** Per-query rows formats: the two built-in ones and the importers. */
export const ROW_FORMATS = ['jsonl', 'csv', 'long', 'parquet', 'ragas', 'deepeval', 'pytrec_eval', 'ir_measures', 'trec_eval'] as const
export type RowsFormat = (typeof ROW_FORMATS)[number]

/** What the rows importers need from the reader's options. */
export interface ImportRowsOptions {
  metricFields: ReadonlySet<string>
  format?: RowsFormat
  /** The field that holds the query id, for exports that have no `query_id` (ragas, deepeval). */
  idField?: string
  /** Attributes to keep (those the rules use); undefined keeps all (see RowsSink). */
  keepAttributes?: ReadonlySet<string>
}

/** Checks a `--format` value, refusing an unknown one with the list. */
export function parseRowsFormat(text: string): RowsFormat {
  const normalized = text.trim().toLowerCase().replace(/-/g, '_')
  const found = ROW_FORMATS.find((f) => f === normalized)
  if (found === undefined) throw new InputError({ key: 'format' }, `unknown format "${text}"`, `formats: ${ROW_FORMATS.join(', ')}`)
  return found
}

/**
 * Reads per-query rows through an importer when the format is named as one, or when the content is one
 * (see docs/importers.md); returns undefined to let the built-in JSON Lines / CSV reader handle the file.
 */
export async function importRows(file: string, options: ImportRowsOptions): Promise<SideRows | undefined> {
  const { metricFields, format, idField, keepAttributes } = options
  const csvName = /\.csv$/i.test(file)
  switch (format) {
    case 'ragas':
      return readRecordsRows(file, await recordsLayout(file), { metricFields, idField, keepAttributes })
    case 'deepeval':
      return readDeepevalRows(file, metricFields, idField)
    case 'pytrec_eval':
      refuseNotPerQuery(file, await readHead(file))
      return readPytrecEvalRows(file, metricFields)
    case 'ir_measures':
    case 'trec_eval':
      return readMeasureRows(file, metricFields, format)
    case 'long':
      return readLongRows(file, await longLayout(file), { metricFields, idField, keepAttributes })
    case 'csv':
      return idField !== undefined ? readRecordsRows(file, 'csv', { metricFields, idField, keepAttributes }) : undefined
    case 'jsonl':
      return idField !== undefined ? readRecordsRows(file, 'jsonl', { metricFields, idField, keepAttributes }) : undefined
    default:
      break
  }
  const head = await readHead(file)
  if (isLz4Head(head)) {
    throw new InputError({ file }, 'this looks like a ranx .lz4 run (an LZ4 frame), not per-query rows', RUN_WITHOUT_JUDGMENTS)
  }
  const first = firstChar(head)
  if (first === '[') {
    const doc = await readJsonDocument(file, 'JSON array of records')
    if (!Array.isArray(doc)) return undefined
    if (looksLikeDeepeval(doc)) return deepevalToRows(doc, file, metricFields, idField)
    if (doc.length > 0 && !isObject(doc[0])) refuseUnrecognisedJson(file, doc, ROWS_JSON_SHAPES)
    return recordsToRows(doc, file, { metricFields, idField, keepAttributes })
  }
  if (first === '{') {
    refuseNotPerQuery(file, head)
    const firstLine = firstContentLine(head).text
    // A first record with Python's bare NaN in some field is still a record (the reader decides about the field).
    const line = tryJson(firstLine) ?? parseJsonWithNonFinite(firstLine)?.value
    if (isObject(line)) {
      if (looksLikeDeepeval(line)) return readDeepevalRows(file, metricFields, idField)
      const keys = Object.keys(line)
      if (longColumns(keys, metricFields, idField) !== undefined) return readLongRows(file, 'jsonl', { metricFields, idField, keepAttributes })
      if (keys.includes('query_id') && idField === undefined) return undefined
      if (keys.length > 0 && keys.every((k) => isObject(line[k]))) {
        if (looksLikeRagas(keys)) throw columnsOrient(file)
        return readPytrecEvalRows(file, metricFields)
      }
      if (idField !== undefined || looksLikeRagas(keys)) return readRecordsRows(file, 'jsonl', { metricFields, idField, keepAttributes })
      return undefined
    }
    // not one JSON object on the first line: a document over several lines, a first line longer than the
    // head, or a broken JSON Lines record (left to the built-in reader, which names the line)
    const key = /^\s*\{\s*"((?:[^"\\]|\\.)*)"/.exec(head)?.[1]
    if (key === 'query_id') {
      await refuseWholeJsonDocument(file, ROWS_JSON_SHAPES) // one record pretty-printed over several lines
      return undefined
    }
    if (key === 'testRunData') return readDeepevalRows(file, metricFields, idField)
    if (firstValueStart(head) === '{') {
      if (key !== undefined && RAGAS_COLUMNS.has(key)) throw columnsOrient(file)
      return readPytrecEvalRows(file, metricFields)
    }
    if (firstLine.trim() === '{') {
      const doc = await readJsonDocument(file, 'JSON document')
      if (looksLikeDeepeval(doc)) return deepevalToRows(doc, file, metricFields, idField)
      if (isObject(doc) && Object.keys(doc).some((k) => RAGAS_COLUMNS.has(k))) throw columnsOrient(file)
      refuseUnrecognisedJson(file, doc, ROWS_JSON_SHAPES)
    }
    await refuseWholeJsonDocument(file, ROWS_JSON_SHAPES)
    return undefined
  }
  const { text } = firstContentLine(head)
  const tabbed = text.split('\t').map((h) => h.trim())
  if (tabbed.length >= 3 && longColumns(tabbed, metricFields, idField) !== undefined) return readLongRows(file, 'tsv', { metricFields, idField, keepAttributes })
  if (csvName && longColumns(csvHeader(text), metricFields, idField) !== undefined) return readLongRows(file, 'csv', { metricFields, idField, keepAttributes })
  if (csvName) {
    const header = csvHeader(text)
    if (idField !== undefined || header[0] === '' || (!header.includes('query_id') && looksLikeRagas(header))) {
      return readRecordsRows(file, 'csv', { metricFields, idField, keepAttributes })
    }
    return undefined
  }
  if (text !== '' && isMeasureLine(text)) return readMeasureRows(file, metricFields)
  return undefined
}

/** The layout of a file named as long form: JSON Lines by its first character, TSV by its name or a tab in its header, else CSV. */
async function longLayout(file: string): Promise<LongLayout> {
  const head = await readHead(file)
  if (firstChar(head) === '{') return 'jsonl'
  if (/\.tsv$/i.test(file) || firstContentLine(head).text.includes('\t')) return 'tsv'
  return 'csv'
}

/** The column names of a CSV header line (quotes removed; enough to recognise an export). */
function csvHeader(line: string): string[] {
  const out: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      out.push(field.trim())
      field = ''
    } else field += c
  }
  out.push(field.trim())
  return out
}

/**
 * Reads judgments through an importer when the content is ranx / pytrec_eval JSON or a BEIR TSV with its
 * header; returns undefined for TREC qrels (the built-in reader).
 */
export async function importQrels(file: string): Promise<Qrels | undefined> {
  const head = await readHead(file)
  if (isLz4Head(head)) return readRanxLz4Qrels(file)
  if (head.startsWith('PAR1')) {
    throw new InputError(
      { file },
      'is a Parquet table (ranx Qrels.save("qrels.parquet")?); judgments are read from TREC qrels, ranx / pytrec_eval JSON, BEIR TSV or a ranx .lz4 file',
      'save them with qrels.save("qrels.json") or qrels.save("qrels.trec")'
    )
  }
  if (firstChar(head) === '{') return readRanxQrels(file)
  const { text } = firstContentLine(head)
  if (isBeirHeader(text)) return readBeirQrels(file)
  return undefined
}

export { readRanxRun } from './ranx.js'
export { readRanxLz4Run } from './ranx-lz4.js'
