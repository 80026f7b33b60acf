import { InputError } from '../errors.js'
import { forEachJsonRecord, hasMember, memberValue } from './json/lines.js'
import type { BlockCollector } from './run-blocks.js'
import { toByteString } from '../util/order.js'
import { quote } from '../util/show.js'

/**
 * JSON Lines run reader. Two record shapes, freely mixed:
 * - one document per line: `{"query_id": "q1", "doc_id": "d7", "score": 3.2}`;
 * - one query per line: `{"query_id": "q1", "results": [{"doc_id": "d7", "score": 3.2}, ...], ...}`, whose
 *   other top-level fields travel into the query's row: numbers (and null) as metric values, strings and
 *   booleans as attributes (slices). Objects and arrays are skipped and named in a note.
 * Query ids must be JSON strings: a numeric id would lose leading zeros and precision ("01" vs 1).
 */

const RESERVED = new Set(['query_id', 'results', 'doc_id', 'score'])

/** Reads a JSON Lines run into `collector`; returns skipped (non-scalar) passthrough field names. */
export async function readJsonlRun(file: string, collector: BlockCollector): Promise<Set<string>> {
  const skipped = new Set<string>()
  const recordSeen = new Set<string>()
  const hint =
    'each line of a JSON Lines run is one object: {"query_id", "doc_id", "score"} or {"query_id", "results": [...]}'
  await forEachJsonRecord(
    file,
    (obj, line) => {
      const id = queryId(memberValue(obj, 'query_id'), file, line)
      if (hasMember(obj, 'results')) {
        const results = memberValue(obj, 'results')
        if (!Array.isArray(results)) {
          throw new InputError(
            { file, line, queryId: id },
            '"results" is not an array',
            'write "results": [{"doc_id": "...", "score": 1.5}, ...]'
          )
        }
        if (recordSeen.has(id)) {
          throw new InputError(
            { file, line, queryId: id },
            `query ${quote(id)} has a second per-query record`,
            'write one record per query'
          )
        }
        recordSeen.add(id)
        collector.startQuery(id, line)
        for (let i = 0; i < results.length; i++) {
          const r = results[i] as Record<string, unknown> | null
          if (r === null || typeof r !== 'object' || Array.isArray(r)) {
            throw new InputError(
              { file, line, queryId: id },
              `results[${i}] is not an object`,
              'each result is {"doc_id": "...", "score": 1.5}'
            )
          }
          collector.add(
            docId(r.doc_id, file, line, `results[${i}].doc_id`),
            score(r.score, file, line, `results[${i}].score`),
            line
          )
        }
        const values = new Map<string, number | null>()
        const attrs = new Map<string, string>()
        for (let k = 0; k < obj.size; k++) {
          const key = obj.keys[k]
          if (RESERVED.has(key)) continue
          const v = obj.values[k]
          if (typeof v === 'number') {
            if (!Number.isFinite(v))
              throw new InputError(
                { file, line, key, queryId: id },
                `"${key}" is not a finite number`,
                'write a finite decimal number (1e400 overflows)'
              )
            values.set(key, v)
          } else if (v === null) values.set(key, null)
          else if (typeof v === 'string') attrs.set(key, v)
          else if (typeof v === 'boolean') attrs.set(key, String(v))
          else skipped.add(key)
        }
        collector.setFields(values, attrs)
        return
      }
      collector.startQuery(id, line)
      collector.add(
        docId(memberValue(obj, 'doc_id'), file, line, 'doc_id'),
        score(memberValue(obj, 'score'), file, line, 'score'),
        line
      )
    },
    { hint }
  )
  return skipped
}

function queryId(value: unknown, file: string, line: number): string {
  if (typeof value === 'string' && value !== '') return value
  if (typeof value === 'number') {
    throw new InputError(
      { file, line },
      `query_id ${String(value)} is a JSON number`,
      `quote it ("query_id": "${String(value)}"): numbers lose leading zeros and precision, and ids are compared as strings`
    )
  }
  throw new InputError({ file, line }, 'has no "query_id" string', 'every record names its query as "query_id": "..."')
}

function docId(value: unknown, file: string, line: number, key: string): string {
  if (typeof value === 'string' && value !== '') return toByteString(value)
  throw new InputError({ file, line, key }, `${key} is not a non-empty string`, 'document ids are JSON strings')
}

function score(value: unknown, file: string, line: number, key: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  throw new InputError(
    { file, line, key },
    `${key} is not a finite number (found ${quote(value)})`,
    'scores are JSON numbers such as 12.5'
  )
}
