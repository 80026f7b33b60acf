import { neededAttributes } from './config/attributes.js'
import { loadRules } from './config/rules.js'
import type { Rules } from './config/types.js'
import { InputError } from './errors.js'
import type { RowsFormat } from './readers/importers/index.js'
import { readWholeText } from './readers/whole-file.js'
import { readRows } from './readers/rows.js'
import { computeRunRows, parseMeasure, parseMeasures, readQrels, type MetricCoverage, type Qrels } from './metrics/index.js'
import { collectEvidence } from './trust/evidence.js'
import { datasetNotes, evidenceDepth, finishSide, loadDatasetJudgments, readJudgeAnchors, readManifest, readManifests, readRulesQrels, type TrustFiles } from './trust/load-trust.js'
import type { ReferenceInput } from './gate.js'
import type { TrustEvidence } from './trust/trust.js'
import type { SideRows } from './model/rows.js'
import { averageSeeds, type SeedSides } from './align/seeds.js'
import type { ExamCopies } from './readers/exam-copies.js'

/** Largest rules file read (rules are a page of YAML; anything bigger is a mistake or an attack). */
export const MAX_RULES_BYTES = 1024 * 1024

/** Reads the rules text whole (capped at {@link MAX_RULES_BYTES}; see readWholeText). */
export async function readSmallText(file: string, limit = MAX_RULES_BYTES): Promise<string> {
  return readWholeText(file, { limit, what: 'a rules file', hint: 'a rules file is a page of YAML' })
}

/** Reads the rules file into typed rules. */
export async function readRules(file: string): Promise<Rules> {
  return loadRules(await readSmallText(file), file)
}

/** How per-query rows files are read: a named format (src/readers/importers) and the id field of exports without `query_id`. */
export interface RowsInput {
  format?: RowsFormat
  idField?: string
}

/** Reads one side's per-query rows, with the metric fields the rules name. */
async function readSide(file: string, rules: Rules, input: RowsInput = {}): Promise<SideRows> {
  const keepAttributes = new Set(neededAttributes(rules).keys())
  // The judge's length-bias diagnostic reads the answer length like a metric field (never gated by itself).
  const length = rules.judge?.lengthBias?.length
  const metricFields = new Set(rules.metrics.keys())
  if (length !== undefined) metricFields.add(length)
  return readRows(file, { metricFields, format: input.format, idField: input.idField, keepAttributes })
}

/** Both sides, read once: per-query rows, or (when the rules name judgments) runs scored against them. */
export interface Sides {
  baseline: SideRows
  candidate: SideRows
  /** How each run met the judgments (runs only). */
  runs: { baseline: MetricCoverage; candidate: MetricCoverage } | undefined
  /** What the trust checks need (rankings, dataset, manifests): pass it to runGate. */
  trust: TrustEvidence
}

/**
 * Reads baseline and candidate. With `judgments` in the rules both files are runs: the judgments are read
 * once, and every metric name that is a measure (nDCG@10, R@100, ...) is computed per query exactly as
 * trec_eval does; other metric names (latency_ms) are taken from the run's per-query JSON fields.
 */
export async function readSides(rules: Rules, baselineFile: string, candidateFile: string, qrelsOverride?: string, trustFiles: TrustFiles = {}, input: RowsInput = {}): Promise<Sides> {
  const manifests = await readManifests(rules, trustFiles)
  const anchors = await readJudgeAnchors(rules, trustFiles.examCopies)
  if (!rules.judgments && !rules.dataset && qrelsOverride === undefined) {
    const trust: TrustEvidence = { runs: null, dataset: null, manifests, anchors }
    return { baseline: await readSide(baselineFile, rules, input), candidate: await readSide(candidateFile, rules, input), runs: undefined, trust }
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
  const dataset = await loadDatasetJudgments(rules, trustFiles.examCopies)
  const qrels: Qrels = qrelsOverride !== undefined ? await readQrels(qrelsOverride) : dataset === null ? await readRulesQrels(rules.judgments?.qrels as string, trustFiles.examCopies) : dataset.qrels
  const options = { qrels, measures, depth: rules.judgments?.depth, noRelevant: rules.judgments?.noRelevant ?? 'exclude' }
  const parsed = measures.length > 0 ? parseMeasures(measures) : []
  const baseEvidence = collectEvidence(baselineFile, evidenceDepth(rules), parsed)
  const candEvidence = collectEvidence(candidateFile, evidenceDepth(rules), parsed)
  const base = await computeRunRows({ ...options, runFile: baselineFile, observer: baseEvidence.observer })
  const cand = await computeRunRows({ ...options, runFile: candidateFile, observer: candEvidence.observer })
  await finishSide(base.side, base.coverage, baseEvidence.evidence, dataset)
  await finishSide(cand.side, cand.coverage, candEvidence.evidence, dataset, 'candidate')
  for (const [name, error] of others) {
    for (const side of [base.side, cand.side]) {
      if (!side.numericFields.has(name)) {
        throw new InputError(
          { file: rules.source.file, key: `metrics.${name}` },
          `"${name}" is neither a ranking measure nor a numeric field of the run ${side.source} (${error.detail})`,
          'name a measure such as nDCG@10, R@100, P@5, RR, AP, or add the field to every per-query record of the JSON Lines run'
        )
      }
    }
  }
  base.side.notes = base.side.notes.map((n) => `baseline: ${n}`)
  cand.side.notes = cand.side.notes.map((n) => `candidate: ${n}`)
  if (dataset !== null) base.side.notes.unshift(...datasetNotes(dataset))
  const trust: TrustEvidence = { runs: { qrels, measures: parsed, baseline: baseEvidence.evidence, candidate: candEvidence.evidence }, dataset, manifests, anchors }
  return { baseline: base.side, candidate: cand.side, runs: { baseline: base.coverage, candidate: cand.coverage }, trust }
}

/**
 * Reads the reference rows (rules `reference`: the last release's per-query rows, always rows, also when the
 * sides are runs) and its snapshot manifest. Which file is read is the caller's to say: the CLI's --reference
 * (or the rules' path in the working directory), the action's copy at the rules' ref or from the artifact. The
 * manifest is read from `copies` when it is there (in a PR, the action reads it at the base commit like the exam).
 */
export async function readReference(rules: Rules, file: string, manifest?: string, input: RowsInput = {}, copies?: ExamCopies): Promise<ReferenceInput> {
  if (rules.reference === undefined) {
    throw new InputError(
      { file },
      'a reference was given, but the rules name none, so no check has a budget to spend against it',
      'add reference: and budget: to the rules (they are pre-registered, like the margins), or leave the reference out'
    )
  }
  return { rows: await readSide(file, rules, input), label: rules.reference.label, manifest: await readManifest(manifest, copies) }
}

/**
 * Reads each side from one file or several, one per independently trained seed (docs/statistics.md, "Seed
 * replicates"). One file per side is exactly {@link readSides}. Several: every file is read as per-query rows
 * and each side's seeds are averaged per query (src/align/seeds.ts); `seeds` keeps them for the two-level
 * bootstrap. `seeds` is also set with one file per side when the rules ask for statistics.min_seeds, so the
 * checks know how many seeds they were given.
 */
export async function readSeedSides(
  rules: Rules,
  baselineFiles: string[],
  candidateFiles: string[],
  qrelsOverride?: string,
  trustFiles: TrustFiles = {},
  input: RowsInput = {}
): Promise<Sides & { seeds: SeedSides | undefined }> {
  if (baselineFiles.length === 1 && candidateFiles.length === 1) {
    const sides = await readSides(rules, baselineFiles[0], candidateFiles[0], qrelsOverride, trustFiles, input)
    return { ...sides, seeds: rules.statistics.minSeeds === undefined ? undefined : { baseline: [sides.baseline], candidate: [sides.candidate] } }
  }
  if (rules.judgments || rules.dataset || qrelsOverride !== undefined) {
    throw new InputError(
      { file: baselineFiles.length > 1 ? baselineFiles[1] : candidateFiles[1], key: rules.judgments ? 'judgments' : rules.dataset ? 'dataset' : undefined },
      'several seed files per side are read as per-query metric rows, not as runs scored against judgments',
      "score each seed's run first (retrieval-gate metrics --qrels Q --run R -m MEASURE --per-query --format jsonl, or npx retrieval-gate metrics ... without installing it) and pass the per-query rows files"
    )
  }
  const manifests = await readManifests(rules, trustFiles)
  const seeds: SeedSides = { baseline: [], candidate: [] }
  for (const file of baselineFiles) seeds.baseline.push(await readSide(file, rules, input))
  for (const file of candidateFiles) seeds.candidate.push(await readSide(file, rules, input))
  // The judge's anchors are exam files like the manifests: read (at the base commit in a PR) whatever the seeds.
  const trust: TrustEvidence = { runs: null, dataset: null, manifests, anchors: await readJudgeAnchors(rules, trustFiles.examCopies) }
  const binary = new Set([...rules.metrics].filter(([, m]) => m.binary).map(([name]) => name))
  return { baseline: averageSeeds(seeds.baseline, 'baseline', binary), candidate: averageSeeds(seeds.candidate, 'candidate', binary), runs: undefined, trust, seeds }
}
