import { pairReference } from './exam.js'
import { InputError } from '../../errors.js'
import { quote } from '../../util/show.js'
import type { ReferenceRules } from '../../config/reference-rules.js'
import { evaluateBudget, withBudget, type BudgetLooks } from './budget.js'
import type { SideRows } from '../../model/rows.js'
import { readFetched } from '../../readers/fetched.js'
import { readGatedRows } from '../../readers/read.js'
import type { Manifest } from '../../readers/manifest.js'
import {
  budgetNeeds,
  budgetSection,
  budgetsJson,
  budgetUnitWords,
  type ReferenceSummary,
  unitBudgetJson
} from './report.js'
import { createStats, type StatsEngine } from '../../stats/compare.js'
import { readManifest } from '../../trust/load-trust.js'
import { checkReferenceSnapshot } from './snapshot.js'
import type { Capability, ExamRecordSpec, InputSpec } from '../contract.js'

/** The reference rows as read, with their snapshot manifest (null when none was named). */
export interface ReferenceEvidence {
  rows: SideRows
  manifest: Manifest | null
  /** This run's look at the budget over the release (with reference.looks); undefined without an allowance. */
  looks?: ThisLook
}

interface Summary extends ReferenceSummary {
  stats: StatsEngine
  looks: BudgetLooks | undefined
}

const ROWS = 'reference rows'
const MANIFEST = 'reference manifest'
/** The command line cannot fetch a file at a ref or an artifact: --reference gives the rows. */
const OVERRIDE = {
  option: 'reference',
  what: 'the reference',
  help: "the rows of the rules' reference (the last release), for the budgets"
}

/**
 * The regression budget (rules `reference` and a check's `budget`): the drop since the last release, not only
 * since the base, so twenty PRs that each stay within their margin cannot add up to a release that fell by
 * twenty margins.
 *
 * Exam: the reference rows (the release's per-query rows at a tag, or an artifact of a push run on the default
 * branch or the ref the rules name; never a run a pull request or another branch could make) and its snapshot
 * manifest. Answer: none of its own (the candidate's rows are the core's).
 */
export const referenceCapability: Capability<ReferenceRules, ReferenceEvidence, Summary> = {
  name: 'reference',
  about:
    'a drift that each PR hides under its own margin: the cumulative drop since the last release, against a budget',
  config: (rules) => rules.reference,
  needsRows: () => 'reference',
  files: [{ option: 'reference-manifest', readBy: 'reference', help: "the reference's snapshot manifest" }],
  overrides: [OVERRIDE],
  inputs: (r): InputSpec[] => [
    r.artifact === undefined
      ? {
          role: 'exam',
          kind: 'file',
          name: ROWS,
          path: r.path,
          ref: r.ref,
          dated: true,
          ...fixedFor(r),
          override: OVERRIDE,
          key: 'reference.path'
        }
      : {
          role: 'exam',
          kind: 'artifact',
          name: ROWS,
          artifact: r.artifact.name,
          workflow: r.artifact.workflow,
          file: r.artifact.file,
          ref: r.artifact.ref,
          ...fixedFor(r),
          override: OVERRIDE,
          key: 'reference.artifact'
        },
    {
      role: 'exam',
      kind: 'file',
      name: MANIFEST,
      path: r.manifest,
      givenBy: 'reference-manifest',
      key: 'reference.manifest'
    },
    ...(r.looks === undefined ? [] : [BUDGET_LOOKS])
  ],
  async read(_r, inputs, { rules, rowsInput }) {
    const rowsFile = inputs.file(ROWS)
    if (rowsFile === undefined) throw new Error('the framework fetches the reference rows before read')
    const rows = await readFetched(rowsFile, (path, name) =>
      readGatedRows(path, rules, rowsInput).then((side) => Object.assign(side, { source: name }))
    )
    const manifestFile = inputs.file(MANIFEST)
    const looks = inputs.record<ThisLook>(BUDGET_LOOKS.name)
    return {
      rows,
      manifest: manifestFile === undefined ? null : await readManifest(manifestFile),
      ...(looks === undefined ? {} : { looks })
    }
  },
  assess({ rules, config, evidence, table, core, options }) {
    // Budgets are never skipped silently: rules that name a reference need its rows.
    if (evidence === undefined) throw notRead(rules, config)
    const snapshot = checkReferenceSnapshot(
      rules,
      evidence.manifest,
      { baseline: core.trust.manifests.baseline, dataset: core.trust.manifests.dataset },
      config.label
    )
    const stats = createStats(pairReference(rules, table, evidence.rows, config.label), rules, options)
    const looks: BudgetLooks | undefined =
      config.looks === undefined
        ? undefined
        : {
            thisLook: evidence.looks === undefined ? 1 : evidence.looks.thisLook,
            allowed: config.looks,
            counted: evidence.looks?.counted ?? false,
            unknown: evidence.looks?.unknown ?? null
          }
    const summary: Summary = {
      label: config.label,
      file: evidence.rows.source,
      rows: evidence.rows.ids.length,
      snapshot,
      stats,
      looks,
      confidence: rules.statistics.confidence
    }
    return {
      guards: [],
      summary,
      parts: {
        blocks: { afterFindings: ({ result }) => budgetSection(result, summary) },
        json: ({ result, num }) => ['budgets', budgetsJson(result, summary, num)],
        unitJson: (unit, _check, { num }) => unitBudgetJson(unit, num),
        unitWords: budgetUnitWords,
        unitNeeds: budgetNeeds
      }
    }
  },
  adjust(unit, { rules, summary, check }) {
    const reference = { stats: summary.stats, label: summary.label, looks: summary.looks }
    return withBudget(
      unit,
      evaluateBudget(check.rule, rules, reference, { filters: unit.slice, confidence: unit.comparison.confidence })
    )
  }
}

/**
 * This run's look at the budget over the release (1 = the first), or null with why it could not be counted;
 * `counted` when it was read from the look ledger (in a pull request), false outside one, where nothing counts.
 */
type ThisLook = { thisLook: number | null; counted: boolean; unknown: string | null }

/**
 * The budget's look ledger (rules `reference.looks`): one look per PR run on the reference's commit, which every
 * PR of the release shares and which does not move (a tag's commit or a full sha: the rules refuse looks on a
 * reference without one, and the action a ref that turns out to be a branch). This run's look is recorded, then
 * every look there is counted. Outside a pull request nothing is counted: this run is taken as the one look, and
 * the report says the looks were not counted (report.ts budgetLooksSentence).
 */
const BUDGET_LOOKS: ExamRecordSpec<ThisLook> = {
  role: 'exam',
  kind: 'record',
  name: 'budget-looks',
  key: 'reference.looks',
  outside: { thisLook: 1, counted: false, unknown: null },
  async read(records) {
    const count = await records.look({
      ledger: 'budget look',
      at: { fixedBy: 'reference.looks' },
      perHead: false,
      record: true,
      what: 'the budget'
    })
    if (count.unknown === undefined) return { thisLook: count.all + 1, counted: true, unknown: null }
    records.warn(
      `retrieval-gate: the looks at the regression budget could not be counted: ${count.unknown}; the budgets are inconclusive unless shown spent`
    )
    return { thisLook: null, counted: true, unknown: count.unknown }
  }
}

/** Looks are counted on the reference's commit: with reference.looks, that commit must be one that does not move. */
function fixedFor(r: ReferenceRules): { fixed?: string } {
  return r.looks === undefined ? {} : { fixed: 'reference.looks' }
}

function notRead(rules: { source: { file: string } }, r: ReferenceRules): InputError {
  return new InputError(
    { file: rules.source.file, key: 'reference' },
    `the rules spend budgets against the reference ${quote(r.label)}, but its rows were not read`,
    r.path !== undefined && r.ref === undefined
      ? `pass --reference ${r.path}`
      : "pass the reference rows with --reference FILE (the action reads them from the rules' path/ref or artifact)"
  )
}
