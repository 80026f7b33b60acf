import { nearName } from '../../align/attribute-hint.js'
import { neededAttributes } from '../../config/attributes.js'
import type { Rules } from '../../config/types.js'
import { InputError } from '../../errors.js'
import { attrAt, type SideRows } from '../../model/rows.js'
import { readFetched } from '../../readers/fetched.js'
import { readQueriesFile, type QueriesFile } from './file.js'
import { fromByteString } from '../../util/order.js'
import { quote } from '../../util/show.js'
import type { Capability } from '../contract.js'
import type { QueryDetails } from '../../decide/result.js'
import type { QueryEvidence } from '../../trust/evidence.js'

const FILE = 'queries file'

/** How many top documents of each run a per-query output shows beside a query (runs mode). */
export const TOP_SHOWN = 5

/**
 * What each query is (rules `queries.file`): its text and attributes, from a queries file that is part of the
 * exam, for runs and rows that carry no attributes of their own; and, in runs mode, both runs' top documents.
 * Per-query outputs (the regressed queries' table, regressions.jsonl) show them beside each query.
 *
 * Exam: the queries file (read at the base commit in a pull request). Its attributes go on the baseline's rows
 * (the exam's side) before pairing: a row that says otherwise is refused, and so is a compared query the file
 * does not list. Answer: none of its own (the candidate's runs are the core's).
 */
export const queriesCapability: Capability<{ file: string | undefined }, QueriesFile | null, QueriesFile | null> = {
  name: 'queries',
  about: 'runs without attributes: the exam’s queries file gives each query its slices and text',
  config: (rules) => ({ file: rules.queries.file }),
  needsRows: (q) => (q.file === undefined ? undefined : 'queries.file'),
  inputs: (q) =>
    q.file === undefined ? [] : [{ role: 'exam', kind: 'file', name: FILE, path: q.file, key: 'queries.file' }],
  async read(_q, inputs, { rules }) {
    const file = inputs.file(FILE)
    if (file === undefined) return null
    const keep = new Set(neededAttributes(rules).keys())
    return readFetched(file, (path, name) => readQueriesFile(path, name, keep))
  },
  sides: (core, file, rules) => {
    if (file === null || file === undefined) return core
    const baseline = withExamAttributes(core.baseline, file)
    refuseMissingAttributes(rules, { baseline, candidate: core.candidate }, file)
    return { ...core, baseline }
  },
  assess({ evidence: file, table, core }) {
    const text = file === null || file === undefined ? null : file
    const runs = core.trust.runs
    const details = (i: number): QueryDetails | undefined => {
      const id = table.ids[i]
      const t = text?.byId.get(id)?.text ?? undefined
      if (runs === null) return t === undefined ? undefined : { text: t }
      const base = runs.baseline.queries.get(id)
      const cand = runs.candidate.queries.get(id)
      return {
        ...(t === undefined ? {} : { text: t }),
        top: { baseline: topOf(base), candidate: topOf(cand) },
        grades: { baseline: gradesOf(base), candidate: gradesOf(cand) }
      }
    }
    return {
      guards: [],
      summary: file ?? null,
      parts: {
        ...(text === null && runs === null ? {} : { queryDetails: details }),
        ...(text === null
          ? {}
          : {
              json: () => ['queries_file', { file: text.source, queries: text.byId.size, attributes: text.attributes }]
            })
      }
    }
  }
}

const topOf = (q: QueryEvidence | undefined): string[] => (q?.top ?? []).slice(0, TOP_SHOWN).map(fromByteString)

/**
 * The judgments' grades of {@link topOf}'s documents: a document without a judgment line, or judged with a negative
 * grade (trec_eval's unjudged pool value), has none (null).
 */
const gradesOf = (q: QueryEvidence | undefined): Array<number | null> =>
  Array.from((q?.topGrades ?? new Int32Array(0)).subarray(0, Math.min(TOP_SHOWN, q?.top.length ?? 0)), (g) =>
    g < 0 ? null : g
  )

/**
 * An attribute the rules name that neither the queries file nor the rows have: refused here, naming the rules key
 * and the queries file, with a "did you mean" from every field of the file (not only those the rules use) and the
 * list of what the file has. The pairing's own refusal (align/attribute-hint.ts) would blame the run and say to
 * name a queries file the rules already name. A metric used as a group, and a label only the candidate gives, are
 * left to it: its words for those hold.
 */
function refuseMissingAttributes(rules: Rules, sides: { baseline: SideRows; candidate: SideRows }, file: QueriesFile) {
  const { baseline, candidate } = sides
  const has = (s: SideRows, name: string): boolean => s.attributeFields.has(name) || s.numericFields.has(name)
  for (const [name, key] of neededAttributes(rules)) {
    if (rules.metrics.has(name) || has(baseline, name) || has(candidate, name)) continue
    const inFile = file.fields.filter((f) => !rules.metrics.has(f))
    const near = nearName(name, [...new Set([...inFile, ...baseline.attributeFields])])
    const listed = inFile.length === 0 ? 'none' : [...inFile].sort().join(', ')
    throw new InputError(
      { file: rules.source.file, key },
      `no query of the queries file ${file.source} has the attribute "${name}"${near === undefined ? '' : ` (did you mean "${near}"?)`}`,
      `the queries file's fields: ${listed}; fix the name in the rules, or add the attribute to the queries file (it is part of the exam)`
    )
  }
}

/**
 * The baseline's rows with the queries file's attributes: every row must have an entry (the file lists the exam),
 * and a row's own value for an attribute the file gives must be the file's.
 */
function withExamAttributes(side: SideRows, file: QueriesFile): SideRows {
  const attrs = new Map<string, Array<string | undefined>>([...side.attrs].map(([k, column]) => [k, [...column]]))
  const attributeFields = new Set(side.attributeFields)
  for (let row = 0; row < side.ids.length; row++) {
    const id = side.ids[row]
    const entry = file.byId.get(id)
    if (entry === undefined) {
      throw new InputError(
        { file: file.source, queryId: id },
        `query ${quote(id)} (${side.source}:${side.lines[row]}) is not in the queries file`,
        'the queries file lists the exam: add the query with its attributes, or leave it out of the runs'
      )
    }
    for (const [key, value] of entry.attrs) {
      const own = attrAt(side, key, row)
      if (own !== undefined && own !== value) {
        throw new InputError(
          { file: side.source, line: side.lines[row], key, queryId: id },
          `the row says ${key} = ${JSON.stringify(own)}, but the queries file ${file.source} says ${JSON.stringify(value)}`,
          `the queries file's attributes are the exam's: drop "${key}" from the rows, or write the same value`
        )
      }
      let column = attrs.get(key)
      if (column === undefined)
        attrs.set(key, (column = new Array<string | undefined>(side.ids.length).fill(undefined)))
      column[row] = value
      attributeFields.add(key)
    }
  }
  return { ...side, attrs, attributeFields }
}
