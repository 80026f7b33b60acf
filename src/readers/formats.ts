import {
  readCsvAggregates,
  readJsonlAggregates,
  readParquetAggregates,
  type AggregateTarget
} from './aggregate-rows.js'
import { InputError } from '../errors.js'
import type { Qrels } from '../model/qrels.js'
import type { SideRows } from '../model/rows.js'
import { isBeirHeader } from './importers/beir.js'
import { deepevalToRows, looksLikeDeepeval } from './importers/deepeval.js'
import {
  isMeasureLine,
  measureLayout,
  readMeasureLines,
  readMeasureRows,
  type MeasureLayout
} from './importers/ir-measures.js'
import { longColumns, readLongRows } from './importers/long-form.js'
import { notPerQueryRefusal, notPerQueryShape, type NotPerQueryShape } from './importers/not-per-query.js'
import { readPytrecEvalRows } from './importers/pytrec-eval.js'
import { looksLikeRagas, RAGAS_COLUMNS } from './importers/ragas.js'
import { readRanxQrels, readRanxRun } from './importers/ranx.js'
import { LZ4_MAGIC, refuseRanxLz4 } from './importers/ranx-lz4.js'
import { columnsOrient, jsonRecordsToRows, readCsvRecords, readJsonlRecords } from './importers/records-rows.js'
import {
  unrecognisedJson,
  ROWS_JSON_SHAPES,
  RUN_JSON_SHAPES,
  wholeJsonDocument
} from './importers/unrecognised-json.js'
import { isObject, readJsonDocument } from './json/document.js'
import { readJsonlRun } from './jsonl-run.js'
import { parquetColumnNames, readParquetRows, readParquetRun } from './parquet.js'
import { readPlainRows } from './plain-rows.js'
import { PARQUET_MAGIC, sniffBraceRun, type Probe } from './probe.js'
import { lookalikes, shapeRefusal, type Shape } from './shapes.js'
import { forEachCsvMap, forEachJsonlMap, type RecordHandler } from './record-maps.js'
import type { RowsFormat, RowsOptions } from './rows-input.js'
import type { BlockCollector } from './run-blocks.js'
import { readTrecRun } from './trec-run.js'
import { readTextQrels } from './trec-qrels.js'

/**
 * THE format registry: every format the gate and `metrics` read, and every look-alike they refuse by name, one
 * entry each. Detection (src/readers/read.ts) asks the entries of the kind being read, **in this order**, and the
 * first whose `sniff` recognises the file wins (or, with `--input-format`, the first that answers to the name); the
 * entry's `read` then reads it. Adding a format is one entry here and its reader's file.
 *
 * The order is the precedence: magic bytes first, then refusals of shapes that would otherwise be read as something
 * else, then JSON shapes by their first record or first keys, then text layouts by their header, then the kind's
 * own format by the file's name, and last its default. Each sniff states its whole condition (not only what tells
 * it from its neighbours), so reading one entry says when it is chosen.
 */

/** What is being read. */
export type FormatKind = 'rows' | 'run' | 'qrels' | 'records' | 'aggregates'

/** A sniff's verdict: how the file was recognised and the evidence, in a few words for the report. */
export interface Sniffed {
  by: 'content' | 'extension' | 'fallback'
  why: string
}

/** What a sniff or a `named` condition may return. */
type Maybe<T> = T | Promise<T>

interface EntryBase {
  /** Unique within its kind; what the report names (`inputs.formats`). */
  name: string
  /** A shape recognised only to be refused: the refusal, saying what to export instead (its `read` throws it). */
  refuse?: (p: Probe) => Maybe<InputError>
  /** The `--input-format` names that pick this entry (per-query rows), each when its condition holds. */
  named?: ReadonlyArray<{ option: RowsFormat; when?: (p: Probe) => Maybe<boolean> }>
  /** Whether the file is this format when it is not named: the evidence, or undefined. */
  sniff?: (p: Probe) => Maybe<Sniffed | undefined>
}

/** An entry of kind `K`: its `read` takes the probed file and `To`, and gives `Out`. */
interface Entry<K extends FormatKind, To, Out> extends EntryBase {
  kind: K
  read(p: Probe, to: To): Maybe<Out>
}

/** A per-query rows format. */
export type RowsEntry = Entry<'rows', RowsOptions, SideRows>

/** A run format: each query's documents into the collector; returns passthrough fields skipped, if any. */
export type RunEntry = Entry<'run', BlockCollector, ReadonlySet<string> | undefined>

/** A judgments format. */
export type QrelsEntry = Entry<'qrels', void, Qrels>

/** A records format (judge anchors and labels, a queries file): every record to `onRecord`, refusals naming `name`. */
export type RecordsEntry = Entry<'records', { name: string; onRecord: RecordHandler; hint: string }, void>

/** A layout of the aggregates `retrieval-gate sql` computes (`gate --aggregates`): every row's cells to the target. */
export type AggregatesEntry = Entry<'aggregates', AggregateTarget, void>

export type FormatEntry = RowsEntry | RunEntry | QrelsEntry | RecordsEntry | AggregatesEntry

/** An entry as its kind's list declares it: the list gives the kind (and a refusal entry's `read`). */
type Listed<E extends FormatEntry> = Omit<E, 'kind' | 'read'> & Partial<Pick<E, 'read'>>

/** The entries of one kind's list, each given that kind; a refusal entry reads by throwing its refusal. */
function ofKind<E extends FormatEntry>(kind: E['kind'], entries: ReadonlyArray<Listed<E>>): E[] {
  const refusing = (e: Listed<E>) => async (p: Probe) => {
    throw (await e.refuse?.(p)) ?? new Error(`format registry: the ${kind} entry ${e.name} neither reads nor refuses`)
  }
  return entries.map((e) => ({ kind, read: refusing(e), ...e }) as unknown as E)
}

const content = (why: string): Sniffed => ({ by: 'content', why })
/** A file that starts with the Parquet magic (every kind has a Parquet entry: read, or refused). */
const parquetMagic = (p: Probe): Sniffed | undefined =>
  p.startsWith(PARQUET_MAGIC) ? content('it starts with PAR1, the Parquet magic') : undefined
/** A file named `.csv`. */
const csvName = (p: Probe): Sniffed | undefined =>
  p.named('csv') ? { by: 'extension', why: 'the name ends in .csv' } : undefined

// What the sniffs of JSON rows files share: the first record (an object on the first line) and the first key.
const brace = (p: Probe): boolean => p.firstChar === '{'
const text = (p: Probe): boolean => p.firstChar !== '{' && p.firstChar !== '['
/** A first record that is the gate's own rows (a `query_id`, no `--id-field`): left to the plain reader. */
const plainRecord = (p: Probe): boolean =>
  p.firstRecord !== undefined && p.firstRecordKeys.includes('query_id') && p.idField === undefined
/** Every value of the first record an object: `{query_id: {measure: value}}` on one line. */
const nestedRecord = (p: Probe): boolean =>
  p.firstRecordKeys.length > 0 && p.firstRecordKeys.every((k) => isObject(p.firstRecord?.[k]))
/** No object on the first line and the first key not one that decides alone: a document over several lines. */
const openDocument = (p: Probe): boolean =>
  brace(p) && p.firstRecord === undefined && p.firstKey !== 'query_id' && p.firstKey !== 'testRunData'
/** A document whose first line is `{` alone (pretty-printed), not a nested object: parsed whole to tell what it is. */
const loneBrace = (p: Probe): boolean => openDocument(p) && p.firstValueStart !== '{' && p.firstLine.text.trim() === '{'
/** The whole JSON document, parsed once (strictly) for detection and reader alike; `what` names it in a refusal. */
const jsonDocument = (p: Probe, what: string): Promise<unknown> =>
  p.memo('document', () => readJsonDocument(p.file, what))
/** A Parquet file's column names, from its checked footer. */
const parquetColumns = (p: Probe): Promise<string[]> => p.memo('parquet-columns', () => parquetColumnNames(p.file))
/** A Parquet table whose columns are long form's (the rules' metrics decide between `value` and a metric). */
const longParquet = async (p: Probe): Promise<boolean> =>
  p.startsWith(PARQUET_MAGIC) && longColumns(await parquetColumns(p), p.metricFields, p.idField) !== undefined
/** A file starting `[`: the whole array. */
const arrayDocument = async (p: Probe): Promise<unknown[] | undefined> => {
  if (p.firstChar !== '[') return undefined
  const doc = await jsonDocument(p, 'JSON array of records')
  return Array.isArray(doc) ? doc : undefined
}
/** Every line of a measure listing: its layout is told from all of them. */
const measureLines = (p: Probe) => p.memo('measure-lines', () => readMeasureLines(p.file))
/** A three-column measure listing (not named .csv) whose query column is the one `layout` puts it in. */
const listing = async (p: Probe, layout: MeasureLayout): Promise<Sniffed | undefined> => {
  if (!text(p) || p.named('csv') || p.firstLine.text === '' || !isMeasureLine(p.firstLine.text)) return undefined
  if (measureLayout(await measureLines(p), p.file) !== layout) return undefined
  return content(
    `three whitespace-separated columns, the ${layout === 'ir_measures' ? 'query id' : 'measure name'} first`
  )
}
/** One of the aggregate-only JSON shapes, from the first keys. */
const notPerQuery = (shape: NotPerQueryShape) => (p: Probe) =>
  brace(p) && notPerQueryShape(p.head) === shape ? content('its first keys') : undefined

/** The refusal entry for ranx's LZ4-compressed save (`run.save("run.lz4")`), read as `given`. */
function lz4Entry(given: 'rows' | 'run' | 'qrels') {
  return {
    name: 'lz4',
    sniff: (p: Probe) => (p.startsWith(LZ4_MAGIC) ? content('the LZ4 frame magic') : undefined),
    refuse: (p: Probe) => refuseRanxLz4(p.file, given)
  }
}

/**
 * A refusal entry for a file of another kind's shape (shapes.ts: a run, judgments, per-query rows) given as
 * `given`: recognised by its first line, refused with what it is and where it goes.
 */
function lookalikeEntry(shape: Shape, given: 'rows' | 'run' | 'qrels') {
  return {
    name: `looks-like-${shape.name}`,
    sniff: (p: Probe) => (shape.test(p) ? content(`its first line: ${shape.what}`) : undefined),
    refuse: (p: Probe) => shapeRefusal(shape, given, { file: p.file, line: p.firstLine.line })
  }
}

const ROWS = ofKind<RowsEntry>('rows', [
  {
    name: 'parquet-long',
    named: [
      { option: 'long', when: (p) => p.startsWith(PARQUET_MAGIC) },
      { option: 'parquet', when: longParquet }
    ],
    sniff: async (p) =>
      (await longParquet(p)) ? content('PAR1, with query id, measure and value columns') : undefined,
    read: (p, o) => readParquetRows(p.file, { ...o, long: o.format === 'long' })
  },
  {
    name: 'parquet',
    named: [{ option: 'parquet' }],
    sniff: parquetMagic,
    read: async (p, o) => {
      if (!p.startsWith(PARQUET_MAGIC))
        throw new InputError(
          { file: p.file },
          'does not start with PAR1, so it is not a Parquet file',
          'drop --input-format parquet, or name the format the file is in'
        )
      return readParquetRows(p.file, { ...o, long: false })
    }
  },
  lz4Entry('rows'),
  ...(['ranx-report', 'beir-results', 'metric-major'] as const).map((shape): Listed<RowsEntry> => ({
    name: shape,
    sniff: notPerQuery(shape),
    refuse: (p) => notPerQueryRefusal(p.file, p.head, shape)
  })),
  {
    name: 'deepeval',
    named: [{ option: 'deepeval' }],
    sniff: async (p) => {
      if (p.firstRecord !== undefined && brace(p))
        return looksLikeDeepeval(p.firstRecord) ? content('"testCases" / "test_results" with "metricsData"') : undefined
      if (brace(p) && p.firstKey === 'testRunData')
        return content('its first key is "testRunData" (.deepeval/.latest_test_run.json)')
      if (loneBrace(p))
        return looksLikeDeepeval(await jsonDocument(p, 'JSON document'))
          ? content('a JSON document with "testCases" / "test_results"')
          : undefined
      const array = await arrayDocument(p)
      return array !== undefined && looksLikeDeepeval(array)
        ? content('a JSON array of test cases with "metricsData"')
        : undefined
    },
    read: async (p, o) =>
      deepevalToRows(await jsonDocument(p, 'deepeval results file'), p.file, o.metricFields, o.idField)
  },
  {
    name: 'long-jsonl',
    named: [{ option: 'long', when: brace }],
    sniff: (p) =>
      brace(p) && p.firstRecord !== undefined && longColumns(p.firstRecordKeys, p.metricFields, p.idField) !== undefined
        ? content('its first record has query id, measure and value keys')
        : undefined,
    read: (p, o) => readLongRows(p.file, 'jsonl', o)
  },
  {
    name: 'columns-orient',
    sniff: async (p) => {
      if (brace(p) && p.firstRecord !== undefined)
        return !plainRecord(p) && nestedRecord(p) && looksLikeRagas(p.firstRecordKeys)
          ? content('ragas columns of objects')
          : undefined
      if (openDocument(p) && p.firstValueStart === '{')
        return RAGAS_COLUMNS.has(p.firstKey ?? '') ? content('a ragas column of objects first') : undefined
      if (!loneBrace(p)) return undefined
      const doc = await jsonDocument(p, 'JSON document')
      return isObject(doc) && Object.keys(doc).some((k) => RAGAS_COLUMNS.has(k))
        ? content('a JSON object keyed by ragas columns')
        : undefined
    },
    refuse: (p) => columnsOrient(p.file)
  },
  {
    name: 'pytrec_eval',
    named: [{ option: 'pytrec_eval' }],
    sniff: (p) => {
      if (brace(p) && p.firstRecord !== undefined)
        return !plainRecord(p) && nestedRecord(p)
          ? content('{query_id: {measure: value}} on its first line')
          : undefined
      return openDocument(p) && p.firstValueStart === '{' ? content('an object of objects') : undefined
    },
    read: (p, o) => {
      const shape = notPerQueryShape(p.head)
      if (shape !== undefined) throw notPerQueryRefusal(p.file, p.head, shape)
      return readPytrecEvalRows(p.file, o.metricFields)
    }
  },
  {
    name: 'json-records',
    named: [{ option: 'ragas', when: (p) => p.firstChar === '[' }],
    sniff: async (p) => {
      const array = await arrayDocument(p)
      if (array === undefined || looksLikeDeepeval(array) || (array.length > 0 && !isObject(array[0]))) return undefined
      return content('a JSON array of objects')
    },
    read: async (p, o) => jsonRecordsToRows(await jsonDocument(p, 'per-sample export'), p.file, o)
  },
  {
    name: 'jsonl-records',
    named: [
      { option: 'ragas', when: brace },
      { option: 'jsonl', when: (p) => p.idField !== undefined }
    ],
    sniff: (p) => {
      if (!brace(p) || p.firstRecord === undefined || plainRecord(p) || nestedRecord(p)) return undefined
      if (looksLikeRagas(p.firstRecordKeys)) return content('ragas columns in its first record')
      return p.idField !== undefined ? content('a JSON object per line, with --id-field') : undefined
    },
    read: (p, o) => readJsonlRecords(p.file, o)
  },
  {
    name: 'json-document',
    sniff: async (p) => {
      if (p.firstChar === '[') {
        const array = await arrayDocument(p)
        return array !== undefined && array.length > 0 && !isObject(array[0])
          ? content('a JSON array of non-objects')
          : undefined
      }
      if (!brace(p) || p.firstRecord !== undefined) return undefined
      if (loneBrace(p)) {
        await jsonDocument(p, 'JSON document')
        return content('one JSON document over several lines')
      }
      if (openDocument(p) && p.firstValueStart === '{') return undefined
      if (p.firstKey === 'testRunData') return undefined
      return (await wholeJsonDocument(p)) !== undefined ? content('one JSON document over several lines') : undefined
    },
    refuse: async (p) => {
      const value =
        p.firstChar === '[' || loneBrace(p)
          ? await jsonDocument(p, 'JSON document')
          : (await wholeJsonDocument(p))?.value
      return unrecognisedJson(p.file, value, ROWS_JSON_SHAPES)
    }
  },
  {
    name: 'long-tsv',
    named: [{ option: 'long', when: (p) => p.named('tsv') || p.firstLine.text.includes('\t') }],
    sniff: (p) =>
      text(p) && p.tabHeader.length >= 3 && longColumns(p.tabHeader, p.metricFields, p.idField) !== undefined
        ? content('a tab-separated header with query id, measure and value')
        : undefined,
    read: (p, o) => readLongRows(p.file, 'tsv', o)
  },
  {
    name: 'long-csv',
    named: [{ option: 'long' }],
    sniff: (p) =>
      text(p) && p.named('csv') && longColumns(p.csvHeader, p.metricFields, p.idField) !== undefined
        ? content('a .csv header with query id, measure and value')
        : undefined,
    read: (p, o) => readLongRows(p.file, 'csv', o)
  },
  {
    name: 'csv-records',
    named: [{ option: 'ragas' }, { option: 'csv', when: (p) => p.idField !== undefined }],
    sniff: (p) => {
      if (!text(p) || !p.named('csv')) return undefined
      const header = p.csvHeader
      if (p.idField !== undefined) return content('a .csv file, with --id-field')
      if (header[0] === '') return content("a .csv header whose first name is empty (pandas' index)")
      return !header.includes('query_id') && looksLikeRagas(header)
        ? content('a .csv header with ragas columns')
        : undefined
    },
    read: (p, o) => readCsvRecords(p.file, o)
  },
  ...(['ir_measures', 'trec_eval'] as const).map((layout): Listed<RowsEntry> => ({
    name: layout,
    named: [{ option: layout }],
    sniff: (p) => listing(p, layout),
    read: async (p, o) =>
      readMeasureRows(p.file, o.metricFields, layout, o.format === undefined ? await measureLines(p) : undefined)
  })),
  {
    name: 'csv',
    named: [{ option: 'csv' }],
    sniff: csvName,
    read: (p, o) => readPlainRows(p.file, 'csv', o)
  },
  // A run or judgments given as rows (a JSON Lines run is told apart after reading: plain-rows.ts, ids repeating with
  // a document field, since a rows file may carry a document id as an attribute).
  ...lookalikes('rows', ['jsonl-run']).map((s) => lookalikeEntry(s, 'rows')),
  {
    name: 'jsonl',
    named: [{ option: 'jsonl' }],
    sniff: (p) =>
      plainRecord(p)
        ? content('its first line is a JSON object with "query_id"')
        : { by: 'fallback', why: 'no other rows format matched' },
    read: (p, o) => readPlainRows(p.file, 'jsonl', o)
  }
])

const RUNS = ofKind<RunEntry>('run', [
  {
    name: 'parquet',
    sniff: parquetMagic,
    read: (p, collector) => readParquetRun(p.file, collector).then(() => undefined)
  },
  lz4Entry('run'),
  // Judgments or per-query rows given as a run (files swapped, or rows under rules that name judgments).
  ...lookalikes('run').map((s) => lookalikeEntry(s, 'run')),
  {
    name: 'json-document',
    sniff: async (p) =>
      p.firstJsonChar === '{' && sniffBraceRun(p.head) === 'jsonl' && (await wholeJsonDocument(p)) !== undefined
        ? content('one JSON document over several lines')
        : undefined,
    refuse: async (p) => unrecognisedJson(p.file, (await wholeJsonDocument(p))?.value, RUN_JSON_SHAPES)
  },
  {
    name: 'jsonl',
    sniff: (p) =>
      p.firstJsonChar === '{' && sniffBraceRun(p.head) === 'jsonl' ? content('a JSON object per line') : undefined,
    read: (p, collector) => readJsonlRun(p.file, collector)
  },
  {
    name: 'json',
    sniff: (p) =>
      p.firstJsonChar === '{' && sniffBraceRun(p.head) === 'json' ? content('an object of objects') : undefined,
    read: (p, collector) => {
      readRanxRun(p.file, collector)
      return undefined
    }
  },
  {
    name: 'trec',
    sniff: () => ({ by: 'fallback', why: 'not Parquet, LZ4 or JSON' }),
    read: (p, collector) => readTrecRun(p.file, collector).then(() => undefined)
  }
])

const QRELS = ofKind<QrelsEntry>('qrels', [
  lz4Entry('qrels'),
  {
    name: 'parquet',
    sniff: parquetMagic,
    refuse: (p) =>
      new InputError(
        { file: p.file },
        'is a Parquet table (ranx Qrels.save("qrels.parquet")?); judgments are read from TREC qrels, ranx / pytrec_eval JSON or BEIR TSV',
        'save them with qrels.save("qrels.json") or qrels.save("qrels.trec")'
      )
  },
  // A run or per-query rows given as the judgments (files swapped).
  ...lookalikes('qrels').map((s) => lookalikeEntry(s, 'qrels')),
  {
    name: 'json',
    sniff: (p) => (brace(p) ? content('it starts with {') : undefined),
    read: (p) => readRanxQrels(p.file)
  },
  {
    name: 'beir',
    sniff: (p) => (isBeirHeader(p.firstLine.text) ? content('a three-column tab-separated header') : undefined),
    read: (p) => readTextQrels(p.file, 'beir')
  },
  {
    name: 'trec',
    sniff: () => ({ by: 'fallback', why: 'not LZ4, JSON or BEIR' }),
    read: (p) => readTextQrels(p.file, 'trec')
  }
])

const RECORDS = ofKind<RecordsEntry>('records', [
  {
    name: 'csv',
    sniff: csvName,
    read: (p, to) => forEachCsvMap(p.file, to.name, to.onRecord)
  },
  {
    name: 'jsonl',
    sniff: () => ({ by: 'fallback', why: 'not named .csv' }),
    read: (p, to) => forEachJsonlMap(p.file, to.name, to.onRecord, to.hint)
  }
])

const AGGREGATES = ofKind<AggregatesEntry>('aggregates', [
  {
    name: 'parquet',
    sniff: parquetMagic,
    read: (_p, to) => readParquetAggregates(to)
  },
  {
    name: 'csv',
    sniff: csvName,
    read: (_p, to) => readCsvAggregates(to)
  },
  {
    name: 'jsonl',
    sniff: () => ({ by: 'fallback', why: 'not Parquet, not named .csv' }),
    read: (_p, to) => readJsonlAggregates(to)
  }
])

/** Every format, by kind, in precedence order within each kind. */
export const FORMATS: readonly FormatEntry[] = [...ROWS, ...RUNS, ...QRELS, ...RECORDS, ...AGGREGATES]
