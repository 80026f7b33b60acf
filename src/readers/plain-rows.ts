import { InputError } from '../errors.js'
import type { SideRows } from '../model/rows.js'
import type { RowsOptions } from './rows-input.js'
import { ID_FIELD, readCsvInto, readJsonlInto } from './importers/records-rows.js'
import { RowsSink } from './importers/rows-sink.js'
import { documentField, firstLineHint, RUN_WITHOUT_JUDGMENTS } from '../util/input-hints.js'
import { recogniseShape, shapeRefusal } from './shapes.js'
import { quote } from '../util/show.js'

/**
 * The gate's own per-query rows: JSON Lines (one object per line) or CSV with a header, each record a `query_id`
 * (a string) plus metric fields (numbers) and attribute fields, read in one streaming pass into {@link SideRows}.
 * Metric fields must be finite numbers (an empty / null value is kept as a missing value for the pairing
 * stage to refuse or fill, as the rules say); query ids are strings taken exactly as written. Duplicate ids
 * are collected and refused together, each with its lines.
 */
export async function readPlainRows(file: string, layout: 'jsonl' | 'csv', options: RowsOptions): Promise<SideRows> {
  const sink = new RowsSink(file, options.metricFields, options.keepAttributes, true)
  if (layout === 'csv') await readCsvInto(sink, options)
  else await readJsonl(sink, options)
  // A repeated id with a document field is a run (one line per retrieved document): say that, not the repeats.
  const doc = sink.firstRepeat === undefined ? undefined : documentField(sink.attributeFields)
  if (doc !== undefined)
    throw new InputError(
      { file },
      `this looks like a run (one line per retrieved document, field ${quote(doc)}; ${sink.firstRepeat}), not per-query rows`,
      RUN_WITHOUT_JUDGMENTS
    )
  const side = sink.finish(`write one record per query with a "${ID_FIELD}" field`)
  const lookAlikes = normalizationTwins(side)
  if (lookAlikes.length > 0) {
    side.notes.push(
      `${file}: ${lookAlikes.length} query ${lookAlikes.length === 1 ? 'id differs' : 'ids differ'} from another only in Unicode normalisation (NFC/NFD), kept as distinct queries: ${lookAlikes.slice(0, 5).join(', ')}${lookAlikes.length > 5 ? ` and ${lookAlikes.length - 5} more` : ''}`
    )
  }
  return side
}

/**
 * Ids are compared exactly as written ("café" in NFC and NFD are two queries, as "01" and "1" are), because
 * normalising would silently merge queries some system does tell apart. Look-alikes are rare and usually an
 * export bug, so they are named in the report instead of being merged or refused.
 */
function normalizationTwins(side: SideRows): string[] {
  const byNfc = new Map<string, string>()
  const twins: string[] = []
  side.ids.forEach((id, row) => {
    if (/^[\x00-\x7f]*$/.test(id)) return
    const nfc = id.normalize('NFC')
    const other = byNfc.get(nfc)
    if (other === undefined) byNfc.set(nfc, id)
    else twins.push(`${escapeNonAscii(id)} (line ${side.lines[row]}) ~ ${escapeNonAscii(other)}`)
  })
  return twins
}

async function readJsonl(sink: RowsSink, options: RowsOptions): Promise<void> {
  const file = sink.file
  const hint = `write one JSON object per line, e.g. {"${ID_FIELD}": "q1", "recall@10": 0.5}; a truncated last line is refused`
  await readJsonlInto(sink, options, {
    ...options,
    nonFinite: true,
    hint: (text, line) => (line === 1 ? firstLineHint(text, hint) : hint),
    beforeParse: (text, line) => {
      // Read as JSON Lines by name (--input-format jsonl), a TREC run or judgments still gets its shape's refusal
      // (the registry's rows entries, formats.ts, refuse the same shapes when the format is detected).
      if (line !== 1) return
      const shape = recogniseShape({ file, head: Buffer.from(text.slice(0, 1000)) }, 'rows', ['jsonl-run'])
      if (shape !== undefined) throw shapeRefusal(shape, 'rows', { file, line })
    }
  })
}

/** `"cafe\u0301"`: look-alike ids printed so a reader can see how they differ (here and in the pairing's refusal). */
export function escapeNonAscii(id: string): string {
  return JSON.stringify(id).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
