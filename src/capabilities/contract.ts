/**
 * The contract every capability plugs into (docs/architecture.md, "Capabilities"). A capability is one module that
 * declares what it needs from the rules, which inputs it reads and whose they are, how it assesses the paired
 * table, and what it adds to the reports. The framework (src/capabilities/inputs.ts, src/load.ts, src/gate.ts)
 * does the rest, the same way for every capability:
 *
 * - **exam inputs** (the rules, judgments, evaluation set, anchors' human labels, the reference, the look ledger,
 *   history) are fetched only from a trusted source, resolved in one place (an {@link InputSource}: the working
 *   directory for the CLI; in a pull request the base commit, a tag, or an artifact of a push run on the default
 *   branch, src/github/input-source.ts);
 * - **answer inputs** (the candidate's rows, runs, seeds, judge labels, manifest) come from the pull request and
 *   only fill in the exam: each capability refuses an answer that leaves out, adds or relabels an exam item, and
 *   the framework refuses two files of one input with the same content (one seed given twice is one seed);
 * - `assess` is pure; the guards it returns count toward the verdict like every trust guard; the report parts it
 *   returns are placed by the renderers in fixed slots, in registry order.
 *
 * Adding a capability is its folder (src/capabilities/<name>/: the module with its rules fragment, reason words,
 * optional files and whether it needs rows; its report parts; what only it reads or computes), one line in
 * src/capabilities/registry.ts and its test: the rules schema, the refusals under --aggregates, the guards' words
 * and the CLI's and action's optional files are derived from the registry (docs/architecture.md, "Adding a
 * capability"; __tests__/capabilities/throwaway.test.ts proves it), and so are the CLI's override options (its
 * `overrides`). Still closed, so an edit outside the folder for a capability that needs one: an action input
 * (action.yml: GitHub reads inputs from that file alone) and a field the publishable judgment reads (`TrustParts`;
 * its part of the trust section, its rows of the comparability table and its `trust` JSON key are its own report
 * parts). A unit's own reason codes, data and policy are the capability's (UnitResult.marks, ownPolicy; the
 * parts unitWords, unitNeeds, unitJson); so are its exam records (ExamRecordSpec).
 */
import type { PairedTable } from '../align/pair.js'
import type { SeedSides } from '../align/seeds.js'
import type { Rules } from '../config/types.js'
import type { CheckResult, UnitResult } from '../decide/types.js'
import type { CapabilityOutcome, RenderParts } from '../decide/result.js'
import type { HistoryInput } from '../model/history.js'
import type { SideRows } from '../model/rows.js'
import type { RowsInput } from '../readers/rows-input.js'
import type { StatsEngine, StatsOptions } from '../stats/compare.js'
import type { GuardResult, TrustEvidence, TrustParts } from '../trust/trust.js'
import type { FetchedFile } from '../readers/fetched.js'

export type { FetchedFile } from '../readers/fetched.js'

/**
 * Whose an input is. `exam`: defines the test (trusted source only). `baseline`: the old system's side, read
 * where the baseline is read (a file, or the base branch's artifact). `answer`: the pull request's, untrusted.
 */
export type InputRole = 'exam' | 'baseline' | 'answer'

/** A file the rules name that is part of the exam: read at the trusted source, never from the PR's tree. */
export interface ExamFileSpec {
  role: 'exam'
  kind: 'file'
  /** The input's name in docs and messages (`judge anchors`). */
  name: string
  /** The path as the rules write it; undefined when `givenBy` names it. */
  path: string | undefined
  /**
   * The optional file (its CLI option and action input, one name; one of the capability's `files`) that names the
   * path when the rules do not (a manifest named by the workflow): the path is the invocation's, the file is still
   * read at the trusted source.
   */
  givenBy?: string
  /** A tag, branch or commit to read it at (undefined: where the rules were read). */
  ref?: string
  /**
   * Its age matters (a reference): the commit it is read at is resolved and dated. Without `ref` that is the PR's
   * base commit (else the commit the run checked out), whatever the rules' source.
   */
  dated?: boolean
  /** The rules key that counts looks on the commit it is read at (`reference.looks`): that commit must not move. */
  fixed?: string
  /** The rules key that names it, for refusals. */
  key: string
  /** How the command line gives it when it cannot fetch it (a file at a ref, an artifact). */
  override?: CliOverride
}

/** The CLI option that gives an exam input the command line does not fetch, and what it is called in the refusal. */
export interface CliOverride {
  /** The option, without `--` (`reference`). */
  option: string
  /** The input in a sentence (`the reference`). */
  what: string
  /** What it gives, for the CLI's usage line (`the rows of the rules' reference ...`). */
  help: string
}

/** An exam file inside an artifact of a trusted run (a push run on the default branch, or on `branch`). */
export interface ExamArtifactSpec {
  role: 'exam'
  kind: 'artifact'
  name: string
  artifact: string
  workflow?: string
  file?: string
  /** The branch or tag whose push runs may hold it, as the rules write it (undefined: the default branch). */
  ref?: string
  /** The rules key that counts looks on its run's commit (`reference.looks`): the ref must be a tag. */
  fixed?: string
  key: string
  override?: CliOverride
}

/**
 * What the trusted side keeps about earlier runs where a pull request cannot write: in a pull request the action's
 * (src/github/input-source.ts: commit statuses on a commit that does not move, the default branch's push runs).
 * A capability reads its record through these and words what it finds; no list of records is kept outside it.
 */
export interface TrustedRecords {
  /** The default branch's history, read once per run (undefined: the rules ask for none, or no token). Never throws. */
  history(rules: Rules): Promise<HistoryInput | undefined>
  /** Records this run's look in a ledger (before it counts: runs that start together see each other), then counts. */
  look(request: LookRequest): Promise<LookCount>
  /** A warning for the step's log and annotations (a ledger that could not be counted). */
  warn(message: string): void
}

/** One look at a ledger kept in commit statuses (src/github/look-ledger.ts). */
export interface LookRequest {
  /** The ledger's name in its status context: `holdout look` is `retrieval-gate holdout look[ / NAME]`. */
  ledger: string
  /**
   * The commit the looks are kept on, one that does not move for what they count: a tag or a full sha the rules
   * name at `key` (a branch is refused there), or the commit an exam input was read at for the rules key that
   * counts looks there (`fixedBy`).
   */
  at: { ref: string; key: string } | { fixedBy: string }
  /** Count each pull request's head on its own as well as all of them (contexts `… (release) / branch <hash>`). */
  perHead: boolean
  /** Whether this run looks (its look is written first); false: it only counts. */
  record: boolean
  /** What is looked at, for the status's description (`the holdout`). */
  what: string
}

/** The looks before this run's (this head's, when counted per head; all of them), or why they are unknown. */
export type LookCount = { head: number | null; all: number; unknown?: undefined } | { unknown: string }

/**
 * An exam record: not a file, but what the trusted source keeps (a look ledger, the history), read by the
 * capability through {@link TrustedRecords} in a pull request.
 */
export interface ExamRecordSpec<T = unknown> {
  role: 'exam'
  kind: 'record'
  name: string
  key: string
  /**
   * The record outside a pull request, where nothing is counted and this run is the one look (the CLI's, and the
   * action's on a push): declared by the capability, so the CLI keeps no list of records.
   */
  outside: T
  /** The record in a pull request, read from the trusted side. */
  read(records: TrustedRecords, rules: Rules): Promise<T>
}

/** Files given on the command line or as action inputs: the baseline's or the candidate's. */
export interface GivenSpec {
  role: Exclude<InputRole, 'exam'>
  kind: 'given'
  name: string
  /** The CLI option (without --) and the action input that carry it: one name for both. */
  option: string
  /** Several files (one per seed); their contents must all differ. */
  many: boolean
  /** Absent: refused with how to give it. */
  required: boolean
}

/**
 * A file the invocation may give for a capability (a CLI option and an action input of one name), and the rules key
 * that switches on what reads it. The CLI's and the action's lists of optional files, and the refusal of one given
 * for nothing, are derived from these (src/load.ts, optionalFiles).
 */
export interface OptionalFile {
  /** The CLI option (without --) and the action input. */
  option: string
  /** The rules key that switches on what reads it, for the refusal of a file given for nothing. */
  readBy: string
  /** What it is, for the CLI's usage line (`the reference's snapshot manifest`). */
  help: string
}

export type InputSpec = ExamFileSpec | ExamArtifactSpec | ExamRecordSpec | GivenSpec

/**
 * Where inputs come from. The CLI's reads the working directory and its options; the action's reads exam files
 * at the trusted source and answers from the workspace (src/github/input-source.ts). Every exam input passes here,
 * so "where does this come from" is decided in one place.
 */
export interface InputSource {
  /** Where exam inputs are read, for messages ("the base commit 0123456789ab", "the working directory"). */
  readonly examPlace: string
  examFile(spec: ExamFileSpec): Promise<FetchedFile>
  examArtifact(spec: ExamArtifactSpec): Promise<FetchedFile>
  record<T>(spec: ExamRecordSpec<T>, rules: Rules): Promise<T>
  /** The files given for an input, as paths (none: empty). */
  given(spec: GivenSpec): string[]
}

/** A capability's inputs as fetched, by input name. */
export interface FetchedInputs {
  files(name: string): FetchedFile[]
  file(name: string): FetchedFile | undefined
  /** A record by its spec's name, as the capability that declared it typed it. */
  record<T>(name: string): T | undefined
}

/** What the core read before the capabilities (src/load.ts): both sides, the trust evidence, seed files. */
export interface CoreSides {
  baseline: SideRows
  candidate: SideRows
  trust: TrustEvidence
  /** Every seed file per side when more than one was given (else one per side). */
  seeds: SeedSides
}

export interface ReadContext {
  rules: Rules
  rowsInput: RowsInput
  core: CoreSides
}

/** What `assess` sees: the rules as applied, the paired table, the statistics, both sides and its evidence. */
export interface AssessContext<Config, Evidence> {
  rules: Rules
  config: Config
  /** What `read` returned; undefined when the caller built the inputs without reading (sidesInputs). */
  evidence: Evidence | undefined
  table: PairedTable
  stats: StatsEngine
  core: CoreSides
  options: StatsOptions
}

/** A capability's assessment: trust guards (they count toward the verdict), what the reports show, and its summary. */
export interface Assessment<Summary> {
  /** Each guard's reason code is one of the capability's {@link Capability.words}. */
  guards: GuardResult[]
  summary: Summary
  /** What it fills in for the publishable judgment (the trust family: comparability, pooling, dataset). */
  trust?: Partial<TrustParts>
  parts: RenderParts
}

/**
 * The rules keys a capability adds to the rules file: top-level properties of the JSON Schema (merged into
 * rules/schema.json by src/capabilities/rules.ts, validated by ajv with the rest), in the order written.
 * Its `config` reads them from `rules.extra`, as written (ajv has checked them against this fragment).
 */
export type RulesFragment = Readonly<Record<string, Readonly<Record<string, unknown>>>>

/**
 * A capability's reason codes and their words: for each code its guards return, the sentence every report shows
 * (RAW: each renderer escapes it for where it goes). A guard whose code has no words here is a bug: the gate stops.
 */
export type ReasonWords = Readonly<Record<string, (reason: never) => string>>

/** After every check is decided: a capability may make a unit worse (budget) or undecided (holdout looks), never better. */
export interface AdjustContext<Config, Summary> extends AssessContext<Config, unknown> {
  summary: Summary
  check: CheckResult
}

export interface Capability<Config = unknown, Evidence = unknown, Summary = unknown> {
  /** Stable name: the registry key, docs and messages. */
  readonly name: string
  /** One line on what it defends against, for docs/architecture.md and `explain`. */
  readonly about: string
  /** Its rules keys, when it adds some to the schema (the older capabilities' keys are still in src/config/). */
  readonly rules?: RulesFragment
  /** The optional files the invocation may give for it (an input spec reads each when the rules switch it on). */
  readonly files?: readonly OptionalFile[]
  /** The CLI override options its input specs name (`override`): the gate's usage lists each with its help. */
  readonly overrides?: readonly CliOverride[]
  /** Its guards' reason codes and their words (none: it returns no guard). */
  readonly words?: ReasonWords
  /** Its typed rules, or undefined when the rules do not ask for it (then nothing of it runs). */
  config(rules: Rules): Config | undefined
  /**
   * The rules key whose evidence is per query or in files beside the rows, or undefined when it runs on sums alone.
   * Under `gate --aggregates` (no rows) a capability that names a key here is refused with that key, so no guard
   * runs on an empty table. Required, so a new capability has to say.
   */
  needsRows(config: Config, rules: Rules): string | undefined
  /** The inputs it reads, by name and role. */
  inputs(config: Config, rules: Rules): InputSpec[]
  /** Reads its fetched inputs into evidence (readers/); called once, after the core sides. */
  read(config: Config, inputs: FetchedInputs, ctx: ReadContext): Promise<Evidence>
  /** Before pairing: the rules as the gate applies them (seed averages are shares, not 0/1). */
  prepare?(rules: Rules, core: CoreSides): Rules
  /** Before pairing: the sides as the exam defines them (the queries file's attributes on the baseline's rows). */
  sides?(core: CoreSides, evidence: Evidence, rules: Rules): CoreSides
  /** Wraps the statistics (seed replicates: intervals over seeds and queries). */
  stats?(engine: StatsEngine, ctx: AssessContext<Config, Evidence>): StatsEngine
  assess(ctx: AssessContext<Config, Evidence>): Assessment<Summary>
  /** May only make a unit worse or inconclusive; the framework re-decides every check and the verdict once. */
  adjust?(unit: UnitResult, ctx: AdjustContext<Config, Summary>): UnitResult
}

/** One active capability after assessment (internal to the gate). */
export interface Assessed {
  capability: Capability
  config: unknown
  evidence: unknown
  assessment: Assessment<unknown>
}

/** The outcome the result carries for the renderers. */
export function outcomeOf(a: Assessed): CapabilityOutcome {
  return {
    name: a.capability.name,
    guards: a.assessment.guards,
    summary: a.assessment.summary,
    parts: a.assessment.parts
  }
}
