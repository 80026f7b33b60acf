import { InputError, type Where } from '../errors.js'
import { documentField, RUN_WITHOUT_JUDGMENTS } from '../util/input-hints.js'
import { isBeirHeader } from './importers/beir.js'
import { parseDecimal } from './numbers.js'
import { Probe, type ProbeInput } from './probe.js'

/**
 * What a file is, whichever input it was given as: a run, judgments or per-query rows, told from its first line by
 * the same features format detection reads (probe.ts). The format registry (formats.ts) turns each shape that is
 * not the kind being read into a refusal entry, and {@link recogniseShape} asks the same shapes about a file
 * given as the rules, so a swapped file is named for what it is and where it goes ("this looks like judgments
 * (TREC qrels), not a run: pass it as --qrels / judgments.qrels") instead of failing on its first line.
 */

/** The inputs a file can be given as, and be recognised as. */
export type InputKind = 'run' | 'qrels' | 'rows' | 'rules'

/** One recognisable shape of an input: its kind, its words in a refusal, and the test of a probed file. */
export interface Shape {
  name: 'trec-run' | 'jsonl-run' | 'trec-qrels' | 'beir-qrels' | 'jsonl-rows' | 'csv-rows'
  /** The input this shape is. */
  kind: Exclude<InputKind, 'rules'>
  /** What the file is, in the words of a refusal: "judgments (TREC qrels: query iteration document grade)". */
  what: string
  /** Whether the probed file has this shape (its first line; the head only). */
  test: (p: Probe) => boolean
}

/** The whitespace-separated fields of the first line (a few are enough: a line may be megabytes). */
const fields = (p: Probe): string[] => p.firstLine.text.slice(0, 1000).trim().split(/\s+/)
const isText = (p: Probe): boolean => p.firstChar !== '{' && p.firstChar !== '[' && p.firstLine.text !== ''
const isNumber = (s: string | undefined): boolean => s !== undefined && parseDecimal(s) !== undefined
const isInteger = (s: string | undefined): boolean => s !== undefined && /^[+-]?\d+$/.test(s)
/** The first line is a JSON object with a string "query_id". */
const queryRecord = (p: Probe): boolean => p.firstChar === '{' && typeof p.firstRecord?.query_id === 'string'
/** A first record that lists documents: a "results" array, or a document field (one line per document). */
const listsDocuments = (p: Probe): boolean =>
  Array.isArray(p.firstRecord?.results) || documentField(p.firstRecordKeys) !== undefined

/** Every shape, in the order they are asked (each test states its whole condition, so the order only breaks ties). */
export const SHAPES: readonly Shape[] = [
  {
    name: 'trec-run',
    kind: 'run',
    what: 'a TREC run (query Q0 doc rank score tag)',
    test: (p) => {
      const f = fields(p)
      return isText(p) && (f.length === 5 || f.length === 6) && isInteger(f[3]) && isNumber(f[4])
    }
  },
  {
    name: 'jsonl-run',
    kind: 'run',
    what: 'a JSON Lines run (each query\'s documents: "results", or one line per "doc_id")',
    test: (p) => queryRecord(p) && listsDocuments(p)
  },
  {
    name: 'trec-qrels',
    kind: 'qrels',
    what: 'judgments (TREC qrels: query iteration doc grade)',
    test: (p) => {
      const f = fields(p)
      return isText(p) && f.length === 4 && isInteger(f[3])
    }
  },
  {
    name: 'beir-qrels',
    kind: 'qrels',
    what: 'judgments (a BEIR qrels TSV: query-id, corpus-id, score)',
    test: (p) => isText(p) && isBeirHeader(p.firstLine.text)
  },
  {
    name: 'jsonl-rows',
    kind: 'rows',
    what: 'per-query rows (a JSON object per query with "query_id" and metric values)',
    test: (p) =>
      queryRecord(p) && !listsDocuments(p) && Object.values(p.firstRecord ?? {}).some((v) => typeof v === 'number')
  },
  {
    name: 'csv-rows',
    kind: 'rows',
    what: 'per-query rows (a CSV header with query_id)',
    test: (p) => isText(p) && p.firstLine.text.includes(',') && p.csvHeader.includes('query_id')
  }
]

/** Where a file of each kind goes, for the refusal's hint. */
const GOES: Record<Shape['kind'], string> = {
  run: 'pass it as --baseline / --candidate (metrics: --run), with the judgments as --qrels / judgments.qrels',
  qrels: 'pass it as --qrels / judgments.qrels, and the runs as --baseline / --candidate',
  rows: 'per-query rows carry their metrics: pass them as --baseline / --candidate, with rules that name no judgments (no judgments.qrels, no --qrels)'
}

/** What the rules are and how to get a first one, for a file given as the rules that is not. */
export const RULES_HINT =
  'the rules are a YAML file of checks: retrieval-gate init --baseline B --candidate C writes a starter from your two files'

/** The refusal of a file of `shape` given as `given`: what it looks like, and where it goes. */
export function shapeRefusal(shape: Shape, given: InputKind, where: Where): InputError {
  const expected = { run: 'a run', qrels: 'judgments', rows: 'per-query rows', rules: 'rules' }[given]
  // A run given as rows keeps the words every run-as-rows refusal uses (the rules key, for the action's users).
  const hint = given === 'rows' && shape.kind === 'run' ? RUN_WITHOUT_JUDGMENTS : GOES[shape.kind]
  return new InputError(
    where,
    `this looks like ${shape.what}, not ${expected}`,
    given === 'rules' ? `${hint}; ${RULES_HINT}` : hint
  )
}

/** The shapes of every kind but `given` (less `except`), in {@link SHAPES}' order. */
export function lookalikes(given: InputKind, except: ReadonlyArray<Shape['name']> = []): Shape[] {
  return SHAPES.filter((s) => s.kind !== given && !except.includes(s.name))
}

/**
 * What a file given as `given` is instead, when its first line has the shape of another input (a run, judgments,
 * per-query rows; less `except`), or undefined. For the inputs not read through the registry (the rules) and for a
 * reader's refusal that detection did not see coming (a format named with --input-format).
 */
export function recogniseShape(
  input: ProbeInput,
  given: InputKind,
  except: ReadonlyArray<Shape['name']> = []
): Shape | undefined {
  const probe = new Probe(input)
  return lookalikes(given, except).find((s) => s.test(probe))
}
