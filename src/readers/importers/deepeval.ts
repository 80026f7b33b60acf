import { InputError } from '../../errors.js'
import type { SideRows } from '../../model/rows.js'
import { RowsSink } from './rows-sink.js'
import { isObject } from '../json/document.js'
import { quote } from '../../util/show.js'

/**
 * deepeval test results: one row per test case, one metric column per deepeval metric.
 *
 * Accepted documents (deepeval's field names, camelCase as its pydantic models dump `by_alias=True`, or
 * snake_case as the Python attributes are named):
 * - the test-run file `deepeval test run` / `evaluate()` save when DEEPEVAL_RESULTS_FOLDER is set:
 *   `{"testFile": ..., "testCases": [{"name", "input", "actualOutput", "retrievalContext", "success",
 *   "metricsData": [{"name": "Contextual Precision", "threshold": 0.5, "success": true, "score": 0.83,
 *   "reason": ..., "evaluationModel": ..., "error": null, "evaluationCost": ...}], "runDuration",
 *   "evaluationCost", "order", "metadata"}], ...}`;
 * - `.deepeval/.latest_test_run.json`, the same test run wrapped as `{"testRunData": {...}, "link": ...}`;
 * - an `EvaluationResult` dumped by the user: `{"test_results": [{"name", "success", "metrics_data": [...],
 *   "input", "actual_output", "additional_metadata"}]}`, or just the list of test cases.
 *
 * Each metric gives two fields: `<metric name>` = its score (null when the metric errored: a missing
 * value, which the gate refuses or fills as the rules say, never 0) and `<metric name>.success` = 1 or 0
 * (deepeval's own threshold verdict, a binary metric for McNemar). Numbers of the test case
 * (`runDuration`, `evaluationCost`, ...; not `order` or `index`, positions) are numeric fields; scalar entries of its metadata are fields
 * too (attributes such as `segment` for slices). Free text (input, output, reason) is not carried.
 *
 * Query ids: the metadata's `query_id`, else the test case's `name` unless it is deepeval's positional
 * default `test_case_<n>` or a pytest parametrize id such as `test_rag[test_case0]`, else the field named with `--id-field` (a test-case field such as `input`, or a
 * metadata key). Otherwise the file is refused: a positional name pairs different questions as soon as
 * the two runs order their test cases differently.
 */

const METADATA_KEYS = ['metadata', 'additionalMetadata', 'additional_metadata']
const CASE_LISTS = ['testCases', 'test_cases', 'test_results', 'testResults']
const METRIC_LISTS = ['metricsData', 'metrics_data']
/**
 * Positional names: deepeval's default `test_case_<n>`, and pytest's parametrize ids for objects,
 * `<test>[<argname><n>]` (`test_rag[test_case0]`, `test_rag[test_case0-golden3]`): both count test cases,
 * so they pair different questions as soon as two runs order them differently. Linear (disjoint classes).
 */
const POSITIONAL_NAME = /^(?:test_case_\d+|[^[]*\[[A-Za-z_]+\d+(?:-[A-Za-z_]+\d+)*\])$/

/** `order`: a test run's position of the test case, never read. `index`: an EvaluationResult's position, kept as a field (so `init` names it as ignored) and refused as a metric. */
const POSITION_FIELDS = new Set(['order'])

/** The wrapper key of `.deepeval/.latest_test_run.json` (deepeval `test_run.py`: `{"testRunData": TestRun, "link": ...}`). */
const WRAPPER_KEY = 'testRunData'

/** The test run inside `.deepeval/.latest_test_run.json`'s wrapper, or the document itself. */
function unwrap(doc: unknown): unknown {
  return isObject(doc) && isObject(doc[WRAPPER_KEY]) ? doc[WRAPPER_KEY] : doc
}

/** True when a parsed JSON value looks like deepeval output (a test run or a list of test cases). */
export function looksLikeDeepeval(wrapped: unknown): boolean {
  const doc = unwrap(wrapped)
  if (isObject(doc))
    return CASE_LISTS.some((k) => Array.isArray(doc[k])) || METRIC_LISTS.some((k) => Array.isArray(doc[k]))
  return (
    Array.isArray(doc) &&
    doc.length > 0 &&
    isObject(doc[0]) &&
    METRIC_LISTS.some((k) => Array.isArray((doc[0] as Record<string, unknown>)[k]))
  )
}

/** Rows from a parsed deepeval document (see the module comment). */
export function deepevalToRows(
  wrapped: unknown,
  file: string,
  metricFields: ReadonlySet<string>,
  idField?: string
): SideRows {
  const doc = unwrap(wrapped)
  let cases: unknown[]
  let listKey = ''
  const sink = new RowsSink(file, metricFields)
  if (Array.isArray(doc)) cases = doc
  else if (isObject(doc)) {
    listKey = CASE_LISTS.find((k) => Array.isArray(doc[k])) ?? ''
    if (listKey === '')
      throw new InputError(
        { file },
        'has no list of test cases ("testCases" or "test_results")',
        'give the test-run file deepeval saves in DEEPEVAL_RESULTS_FOLDER, or a list of test results'
      )
    cases = doc[listKey] as unknown[]
    for (const k of ['conversationalTestCases', 'conversational_test_cases']) {
      const conv = doc[k]
      if (Array.isArray(conv) && conv.length > 0)
        sink.notes.push(
          `${file}: ${conv.length} conversational test ${conv.length === 1 ? 'case' : 'cases'} ignored (one row per single-turn test case)`
        )
    }
  } else
    throw new InputError(
      { file },
      'is not a deepeval results document',
      'give the test-run JSON deepeval saves, or a list of test results'
    )
  const prefix = listKey ? `${listKey}` : ''
  cases.forEach((tc, i) => {
    const label = `${prefix}[${i}]`
    if (!isObject(tc))
      throw new InputError(
        { file, key: label },
        'is not a test case object',
        'each test case is an object with "name" and "metricsData"'
      )
    const metadata = METADATA_KEYS.map((k) => tc[k]).find(isObject) ?? {}
    const id = caseId(tc, metadata, { file, label, idField })
    const row = sink.start(id, 0, label)
    if (row === undefined) return
    const used = new Map<string, string>()
    /** Field `key` of the row, read from `from` (refused when another place gave it already). */
    const put = (key: string, from: string, value: unknown): void => {
      const earlier = used.get(key)
      if (earlier !== undefined)
        throw new InputError(
          { file, key: `${label}.${from}`, queryId: id },
          `field ${quote(key)} comes twice (also from ${earlier})`,
          'give each metric a distinct name, and rename metadata keys that clash with metric names'
        )
      used.set(key, from)
      sink.value(row, key, value, { key: from })
    }
    const metricsKey = METRIC_LISTS.find((k) => Array.isArray(tc[k]))
    const metrics = metricsKey ? (tc[metricsKey] as unknown[]) : []
    metrics.forEach((m, j) => {
      const at = `${label}.${metricsKey}[${j}]`
      if (!isObject(m) || typeof m.name !== 'string' || m.name === '')
        throw new InputError(
          { file, key: at, queryId: id },
          'is not a metric result with a "name"',
          'each entry is {"name": ..., "score": ..., "success": ...}'
        )
      const errored = m.error !== undefined && m.error !== null
      put(m.name, `${at}.score`, m.score === undefined || errored ? null : m.score)
      put(`${m.name}.success`, `${at}.success`, typeof m.success === 'boolean' ? (m.success ? 1 : 0) : null)
    })
    for (const key of Object.keys(tc)) {
      const v = tc[key]
      if (typeof v === 'number' && !POSITION_FIELDS.has(key)) {
        if (key === 'index' && metricFields.has(key))
          throw new InputError(
            { file, key: `${label}.index`, queryId: id },
            'the rules name "index" as a metric, but in deepeval output it is the test case\'s position',
            'remove the index metric from the rules: a position is never a measure of quality'
          )
        put(key, `${label}.${key}`, v)
      }
    }
    for (const key of Object.keys(metadata)) {
      const v = metadata[key]
      if (key === 'query_id' || v === null || typeof v === 'object') continue
      put(key, `${label}.metadata.${key}`, v)
    }
  })
  return sink.finish('the list of test cases is empty')
}

/** The query id of test case `tc` (see the module comment); `at` says where it is, for the refusals. */
function caseId(
  tc: Record<string, unknown>,
  metadata: Record<string, unknown>,
  at: { file: string; label: string; idField: string | undefined }
): string {
  const { file, label, idField } = at
  const text = (v: unknown, what: string): string => {
    if (typeof v === 'string' && v !== '') return v
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v)
    throw new InputError(
      { file, key: `${label}.${what}` },
      `the query id (${what}) is ${v === undefined ? 'missing' : quote(v)}`,
      'every test case needs a non-empty id'
    )
  }
  if (idField !== undefined) {
    if (Object.prototype.hasOwnProperty.call(tc, idField)) return text(tc[idField], idField)
    if (Object.prototype.hasOwnProperty.call(metadata, idField)) return text(metadata[idField], `metadata.${idField}`)
    throw new InputError(
      { file, key: label },
      `has no field ${quote(idField)} (named with --id-field), neither on the test case nor in its metadata`,
      `test-case fields: ${Object.keys(tc)
        .slice(0, 30)
        .map((k) => quote(k, 40))
        .join(', ')}`
    )
  }
  if (Object.prototype.hasOwnProperty.call(metadata, 'query_id')) return text(metadata.query_id, 'metadata.query_id')
  if (typeof tc.name === 'string' && tc.name !== '' && !POSITIONAL_NAME.test(tc.name)) return tc.name
  throw new InputError(
    { file, key: label },
    `has no query id: its name ${quote(tc.name)} is a position (deepeval's default or a pytest parametrize index), and its metadata has no "query_id"`,
    'give each test case an id: LLMTestCase(..., name="<query id>") or additional_metadata={"query_id": "<id>"}; or pass --id-field input to use the question text as the id'
  )
}
