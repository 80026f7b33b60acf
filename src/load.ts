import { averageSeeds, type SeedSides } from './align/seeds.js'
import { loadRules } from './config/rules.js'
import type { Rules } from './config/types.js'
import { InputError } from './errors.js'
import {
  computeRunRows,
  parseMeasure,
  parseMeasures,
  readQrels,
  type MetricCoverage,
  type Qrels
} from './metrics/index.js'
import { recogniseShape } from './readers/shapes.js'
import type { FetchedFile } from './readers/fetched.js'
import { HEAD_BYTES } from './readers/probe.js'
import { shapeRefusal } from './readers/shapes.js'
import { readGatedRows } from './readers/read.js'
import type { RowsInput } from './readers/rows-input.js'
import { readWholeText } from './readers/whole-file.js'
import { collectEvidence } from './trust/evidence.js'
import {
  datasetNotes,
  evidenceDepth,
  finishSide,
  loadDatasetJudgments,
  readManifest,
  readRulesQrels
} from './trust/load-trust.js'
import type { TrustEvidence } from './trust/trust.js'
import type {
  Capability,
  CoreSides,
  FetchedInputs,
  InputSource,
  InputSpec,
  OptionalFile,
  CliOverride
} from './capabilities/contract.js'
import { fetchInputs } from './capabilities/inputs.js'
import { activeCapabilities, CAPABILITIES, type GateInputs } from './capabilities/registry.js'
import { rulesSchema } from './capabilities/rules-schema.js'

export type { RowsInput } from './readers/rows-input.js'

/** Largest rules file read (rules are a page of YAML; anything bigger is a mistake or an attack). */
export const MAX_RULES_BYTES = 1024 * 1024

/** Reads a rules file whole (capped at {@link MAX_RULES_BYTES}; see readWholeText). */
export async function readRulesFile(file: string, limit = MAX_RULES_BYTES): Promise<string> {
  return readWholeText(file, { limit, what: 'a rules file', hint: 'a rules file is a page of YAML' })
}

/** Reads the rules file into typed rules. */
export async function readRules(file: string, registry: readonly Capability[] = CAPABILITIES): Promise<Rules> {
  return rulesFromText(await readRulesFile(file), file, registry)
}

/**
 * Typed rules from the rules file's text (config/rules.ts). A file that is no rules at all, but a run, judgments or
 * per-query rows given as the rules (readers/shapes.ts), is refused as what it is and where it goes, instead of with
 * the YAML error its first line makes.
 */
export function rulesFromText(text: string, file: string, registry: readonly Capability[] = CAPABILITIES): Rules {
  try {
    return loadRules(text, file, rulesSchema(registry))
  } catch (error) {
    // Only a refusal of the whole document (no key: not YAML, not a mapping): a misspelt key is a rules file.
    if (!(error instanceof InputError) || error.where.key !== undefined) throw error
    const shape = recogniseShape({ file, head: Buffer.from(text.slice(0, HEAD_BYTES)) }, 'rules')
    if (shape === undefined) throw error
    throw shapeRefusal(shape, 'rules', { file, line: 1 })
  }
}

/** The core's inputs' names (docs/architecture.md lists them with the capabilities'). */
export const CORE = {
  baseline: 'baseline',
  candidate: 'candidate',
  judgments: 'judgments',
  dataset: 'evaluation set',
  corpus: 'corpus listing',
  datasetManifest: 'dataset manifest',
  baselineManifest: 'baseline manifest',
  candidateManifest: 'candidate manifest'
} as const

/**
 * The core's inputs: both sides (one file each, or one per seed), the judgments or evaluation set they are scored
 * against (exam), and each side's snapshot manifest. Fetched by the same framework as every capability's.
 */
export function coreInputs(rules: Rules, options: LoadOptions = {}): InputSpec[] {
  // a side: required, one file per seed; a side's snapshot manifest: optional, one file
  const given = (role: 'baseline' | 'answer', name: string, option: string, side: boolean): InputSpec => ({
    role,
    kind: 'given',
    name,
    option,
    many: side,
    required: side
  })
  const specs: InputSpec[] = [
    given('baseline', CORE.baseline, 'baseline', true),
    given('answer', CORE.candidate, 'candidate', true),
    given('baseline', CORE.baselineManifest, 'baseline-manifest', false),
    given('answer', CORE.candidateManifest, 'candidate-manifest', false)
  ]
  const qrels = rules.judgments?.qrels
  if (qrels !== undefined && options.qrels === undefined)
    specs.push({ role: 'exam', kind: 'file', name: CORE.judgments, path: qrels, key: 'judgments.qrels' })
  const d = rules.dataset
  if (d !== undefined) {
    specs.push({ role: 'exam', kind: 'file', name: CORE.dataset, path: d.file, key: 'dataset.file' })
    if (d.corpus !== undefined)
      specs.push({ role: 'exam', kind: 'file', name: CORE.corpus, path: d.corpus, key: 'dataset.corpus' })
    if (d.manifest !== undefined)
      specs.push({ role: 'exam', kind: 'file', name: CORE.datasetManifest, path: d.manifest, key: 'dataset.manifest' })
  }
  return specs
}

/** How the files are read, besides where they come from. */
export interface LoadOptions {
  rowsInput?: RowsInput
  /** The CLI's --qrels: score both sides as runs against this file (instead of the rules' judgments). */
  qrels?: string
  /** Whether the invocation gave an optional file's option (or action input): each given must be one the rules read. */
  given?: (option: string) => boolean
  /** The capabilities to read for (a test's temp registry); default the registry. */
  registry?: readonly Capability[]
}

/** Every input of the gate, read: the core sides and each capability's evidence, ready for runGate. */
export interface LoadedInputs extends GateInputs {
  /** How each run met the judgments (runs only). */
  runs: { baseline: MetricCoverage; candidate: MetricCoverage } | undefined
}

/**
 * Reads everything the gate needs through `source` (src/capabilities/contract.ts): the core's inputs, then the
 * inputs of every capability the rules switch on, in registry order, each fetched by the framework and read by
 * the capability. Nothing here names a capability.
 */
export async function loadGateInputs(
  rules: Rules,
  source: InputSource,
  options: LoadOptions = {}
): Promise<LoadedInputs> {
  const rowsInput = options.rowsInput ?? {}
  const active = activeCapabilities(rules, options.registry).map((a) => ({
    ...a,
    specs: a.capability.inputs(a.config, rules)
  }))
  refuseUnread(
    coreInputs(rules, options).concat(active.flatMap((a) => a.specs)),
    optionalFiles(options.registry)
      .map((f) => f.option)
      .filter((option) => options.given?.(option) === true),
    options.registry
  )
  const fetched = await fetchInputs(coreInputs(rules, options), source, rules)
  const { core, runs } = await readCore(rules, fetched, options)
  const evidence = new Map<string, unknown>()
  for (const { capability, config, specs } of active) {
    const inputs = await fetchInputs(specs, source, rules)
    evidence.set(capability.name, await capability.read(config, inputs, { rules, rowsInput, core }))
  }
  return { rules, core, evidence, runs }
}

/**
 * A file given for an input these rules never read is refused: it would be read by nothing, and the person who
 * gave it would believe it was checked (candidate judge labels without judge anchors, a reference manifest
 * without a reference).
 */
function refuseUnread(
  specs: readonly InputSpec[],
  given: readonly string[],
  registry: readonly Capability[] = CAPABILITIES
): void {
  const read = new Set<string>()
  for (const spec of specs) {
    if (spec.kind === 'given') read.add(spec.option)
    if (spec.kind === 'file' && spec.givenBy !== undefined) read.add(spec.givenBy)
  }
  const unread = given.find((option) => !read.has(option))
  if (unread !== undefined) {
    throw new InputError(
      { key: `--${unread}` },
      `was given, but nothing in these rules reads it`,
      `the rules switch on what reads it (${readBy(unread, registry)}); add that to the rules, or leave --${unread} out`
    )
  }
}

/** Which rules key reads an optional given file, for the refusal above. */
function readBy(option: string, registry: readonly Capability[]): string {
  return optionalFiles(registry).find((f) => f.option === option)?.readBy ?? 'see docs/architecture.md'
}

/** The core's optional files: the two sides' snapshot manifests (always read when given). */
const CORE_FILES: readonly OptionalFile[] = [
  {
    option: 'baseline-manifest',
    readBy: 'comparability',
    help: "the baseline's snapshot manifest, for the comparability checks"
  },
  { option: 'candidate-manifest', readBy: 'comparability', help: "the candidate's snapshot manifest" }
]

/**
 * Every optional file an invocation may give (the CLI's options, the action's inputs of the same names): the
 * core's, then each capability's in registry order.
 */
export function optionalFiles(registry: readonly Capability[] = CAPABILITIES): OptionalFile[] {
  return [...CORE_FILES, ...registry.flatMap((c) => c.files ?? [])]
}

/** Every CLI override option (an exam input the command line cannot fetch, given as a file), in registry order. */
export function cliOverrides(registry: readonly Capability[] = CAPABILITIES): CliOverride[] {
  return registry.flatMap((c) => c.overrides ?? [])
}

/**
 * The core sides. With one file per side: per-query rows, or (when the rules name judgments or a dataset, or
 * --qrels is given) runs scored against them, every metric name that is a measure (nDCG@10, R@100, ...) computed
 * per query exactly as trec_eval does, other names (latency_ms) taken from the run's per-query fields. With
 * several files on a side: one per independently trained seed, each read as per-query rows and averaged per query
 * (src/align/seeds.ts).
 */
async function readCore(
  rules: Rules,
  fetched: FetchedInputs,
  options: LoadOptions
): Promise<{ core: CoreSides; runs: LoadedInputs['runs'] }> {
  const rowsInput = options.rowsInput ?? {}
  const manifests: TrustEvidence['manifests'] = {
    baseline: await readManifest(fetched.file(CORE.baselineManifest)),
    candidate: await readManifest(fetched.file(CORE.candidateManifest)),
    dataset: await readManifest(fetched.file(CORE.datasetManifest))
  }
  const baselineFiles = fetched.files(CORE.baseline)
  const candidateFiles = fetched.files(CORE.candidate)
  const runsMode = rules.judgments !== undefined || rules.dataset !== undefined || options.qrels !== undefined
  if (baselineFiles.length === 1 && candidateFiles.length === 1) {
    if (!runsMode) {
      const baseline = await readGatedRows(baselineFiles[0].path, rules, rowsInput)
      const candidate = await readGatedRows(candidateFiles[0].path, rules, rowsInput)
      return {
        core: {
          baseline,
          candidate,
          trust: { runs: null, dataset: null, manifests },
          seeds: { baseline: [baseline], candidate: [candidate] }
        },
        runs: undefined
      }
    }
    return readRuns(rules, fetched, options, manifests)
  }
  if (runsMode) {
    throw new InputError(
      {
        file: baselineFiles.length > 1 ? baselineFiles[1].name : candidateFiles[1].name,
        key: rules.judgments ? 'judgments' : rules.dataset ? 'dataset' : undefined
      },
      'several seed files per side are read as per-query metric rows, not as runs scored against judgments',
      "score each seed's run first (retrieval-gate metrics --qrels Q --run R -m MEASURE --per-query --format jsonl, or node dist/cli.js metrics ... from a clone) and pass the per-query rows files"
    )
  }
  const seeds: SeedSides = { baseline: [], candidate: [] }
  for (const file of baselineFiles) seeds.baseline.push(await readGatedRows(file.path, rules, rowsInput))
  for (const file of candidateFiles) seeds.candidate.push(await readGatedRows(file.path, rules, rowsInput))
  const binary = new Set([...rules.metrics].filter(([, m]) => m.binary).map(([name]) => name))
  const baseline = averageSeeds(seeds.baseline, 'baseline', binary)
  const candidate = averageSeeds(seeds.candidate, 'candidate', binary)
  return { core: { baseline, candidate, trust: { runs: null, dataset: null, manifests }, seeds }, runs: undefined }
}

/** Both sides as runs scored against the judgments (read once), with the evidence the trust checks read. */
async function readRuns(
  rules: Rules,
  fetched: FetchedInputs,
  options: LoadOptions,
  manifests: TrustEvidence['manifests']
): Promise<{ core: CoreSides; runs: LoadedInputs['runs'] }> {
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
  const datasetFile = fetched.file(CORE.dataset)
  const dataset =
    datasetFile === undefined ? null : await loadDatasetJudgments(rules, datasetFile, fetched.file(CORE.corpus))
  const qrels: Qrels =
    options.qrels !== undefined
      ? await readQrels(options.qrels)
      : dataset !== null
        ? dataset.qrels
        : await readRulesQrels(fetched.file(CORE.judgments) as FetchedFile)
  const scoring = {
    qrels,
    measures,
    depth: rules.judgments?.depth,
    noRelevant: rules.judgments?.noRelevant ?? 'exclude'
  }
  const parsed = measures.length > 0 ? parseMeasures(measures) : []
  const baselineFile = (fetched.file(CORE.baseline) as FetchedFile).path
  const candidateFile = (fetched.file(CORE.candidate) as FetchedFile).path
  const baseEvidence = collectEvidence(baselineFile, evidenceDepth(rules), parsed)
  const candEvidence = collectEvidence(candidateFile, evidenceDepth(rules), parsed)
  const base = await computeRunRows({ ...scoring, runFile: baselineFile, observer: baseEvidence.observer })
  const cand = await computeRunRows({ ...scoring, runFile: candidateFile, observer: candEvidence.observer })
  await finishSide(base, baseEvidence.evidence, dataset)
  await finishSide(cand, candEvidence.evidence, dataset, 'candidate')
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
  const trust: TrustEvidence = {
    runs: { qrels, measures: parsed, baseline: baseEvidence.evidence, candidate: candEvidence.evidence },
    dataset,
    manifests
  }
  const core: CoreSides = {
    baseline: base.side,
    candidate: cand.side,
    trust,
    seeds: { baseline: [base.side], candidate: [cand.side] }
  }
  return { core, runs: { baseline: base.coverage, candidate: cand.coverage } }
}
