import { readFile, stat } from 'node:fs/promises'
import { loadRules } from './config/rules.js'
import type { Rules } from './config/types.js'
import { InputError } from './errors.js'
import { readRows } from './inputs/rows.js'
import { computeRunRows, parseMeasure, readQrels, type MetricCoverage, type Qrels } from './metrics/index.js'
import type { SideRows } from './model.js'

/** Largest rules file read (rules are a page of YAML; anything bigger is a mistake or an attack). */
export const MAX_RULES_BYTES = 1024 * 1024

/** Reads a small text file (rules) whole, refusing directories, missing files and oversized ones by name. */
export async function readSmallText(file: string, limit = MAX_RULES_BYTES): Promise<string> {
  let size: number
  try {
    const s = await stat(file)
    if (s.isDirectory()) throw new InputError({ file }, 'is a directory, not a file', 'name the file itself')
    size = s.size
  } catch (error) {
    if (error instanceof InputError) throw error
    throw new InputError({ file }, 'file not found', 'check the path (it is read relative to the working directory)')
  }
  if (size > limit) throw new InputError({ file }, `is ${size} bytes; the limit is ${limit}`, 'a rules file is a page of YAML')
  const bytes = await readFile(file)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\ufeff/, '')
  } catch {
    throw new InputError({ file }, 'is not valid UTF-8', 'save the file as UTF-8')
  }
}

/** Reads the rules file into typed rules. */
export async function readRules(file: string): Promise<Rules> {
  return loadRules(await readSmallText(file), file)
}

/** Reads one side's per-query rows, with the metric fields the rules name. */
export async function readSide(file: string, rules: Rules): Promise<SideRows> {
  return readRows(file, { metricFields: new Set(rules.metrics.keys()) })
}

/** Both sides, read once: per-query rows, or (when the rules name judgments) runs scored against them. */
export interface Sides {
  baseline: SideRows
  candidate: SideRows
  /** How each run met the judgments (runs only). */
  runs: { baseline: MetricCoverage; candidate: MetricCoverage } | undefined
}

/**
 * Reads baseline and candidate. With `judgments` in the rules both files are runs: the judgments are read
 * once, and every metric name that is a measure (nDCG@10, R@100, ...) is computed per query exactly as
 * trec_eval does; other metric names (latency_ms) are taken from the run's per-query JSON fields.
 */
export async function readSides(rules: Rules, baselineFile: string, candidateFile: string, qrelsOverride?: string): Promise<Sides> {
  if (!rules.judgments && qrelsOverride === undefined) {
    return { baseline: await readSide(baselineFile, rules), candidate: await readSide(candidateFile, rules), runs: undefined }
  }
  const measures: string[] = []
  const others: Array<[string, InputError]> = []
  for (const name of rules.metrics.keys()) {
    try {
      parseMeasure(name)
      measures.push(name)
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      others.push([name, error])
    }
  }
  const qrelsFile = qrelsOverride ?? (rules.judgments?.qrels as string)
  const qrels: Qrels = await readQrels(qrelsFile)
  const options = { qrels, measures, depth: rules.judgments?.depth, noRelevant: rules.judgments?.noRelevant ?? 'exclude' }
  const base = await computeRunRows({ ...options, runFile: baselineFile })
  const cand = await computeRunRows({ ...options, runFile: candidateFile })
  for (const [name, error] of others) {
    for (const side of [base.side, cand.side]) {
      if (!side.numericFields.has(name)) {
        throw new InputError(
          { file: rules.source.file, key: `metrics.${name}` },
          `"${name}" is neither a ranking measure nor a numeric field of the run ${side.source} (${error.message.replace(/^[^:]*: /, '')})`,
          'name a measure such as nDCG@10, R@100, P@5, RR, AP, or add the field to every per-query record of the JSON Lines run'
        )
      }
    }
  }
  base.side.notes = base.side.notes.map((n) => `baseline: ${n}`)
  cand.side.notes = cand.side.notes.map((n) => `candidate: ${n}`)
  return { baseline: base.side, candidate: cand.side, runs: { baseline: base.coverage, candidate: cand.coverage } }
}
