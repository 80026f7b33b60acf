import { em, paragraph, text, words } from '../model/document.js'
import type { Coverage, PairedTable } from '../align/pair.js'
import { familyAttributes } from '../config/aggregates-plan.js'
import type { Rules } from '../config/types.js'
import type { CapabilityOutcome } from '../decide/result.js'
import { InputError } from '../errors.js'
import type { Aggregates } from '../model/aggregates.js'
import { sideFromRows } from '../model/rows.js'
import { readAggregates } from '../readers/aggregates.js'
import { createAggregateStats } from '../stats/aggregate-engine.js'
import type { StatsEngine, StatsOptions } from '../stats/compare.js'
import { quote } from '../util/show.js'
import type { Capability, GivenSpec, InputSource } from './contract.js'
import { fetchInputs } from './inputs.js'
import { activeCapabilities, CAPABILITIES, type GateInputs } from './registry.js'

/**
 * A warehouse's aggregates in place of the rows (docs/scale.md, "Beyond one machine"): `gate --aggregates FILE`
 * (one per shard, or one for all) reads what `retrieval-gate sql` computed where the rows are, and decides as from
 * the rows. Not a capability: a capability adds evidence beside the paired rows, the aggregates replace them. So
 * this is a new core input (role answer, fetched by the same framework, src/capabilities/inputs.ts: a file given
 * twice is refused) and the pairing and the rows' sums are replaced by the aggregates' reader
 * (src/readers/aggregates.ts) and engine (src/stats/aggregate-engine.ts), which hands the same sufficient
 * statistics to the same decision core (src/stats/comparison.ts); src/gate.ts runs one pipeline for both.
 *
 * What needs the rows is refused with the key: runs and judgments, an evaluation set, clusters, seed replicates,
 * a reference, a judge, a queries file, history, the trust rules (src/stats/warehouse-sql.ts refuses the same when
 * it writes the SQL).
 */

/** The input's name in messages and docs. */
export const AGGREGATES_INPUT = 'warehouse aggregates'

/** The input: files given with --aggregates (the action input `aggregates`), the candidate's side (docs/trust.md). */
export const AGGREGATES_SPEC: GivenSpec = {
  role: 'answer',
  kind: 'given',
  name: AGGREGATES_INPUT,
  option: 'aggregates',
  many: true,
  required: true
}

/** Reads the aggregates files the invocation gives, for these rules: the gate's inputs without rows (src/gate.ts). */
export async function loadAggregateInputs(
  rules: Rules,
  source: InputSource,
  registry: readonly Capability[] = CAPABILITIES
): Promise<GateInputs> {
  refuseRowsOnly(rules, registry)
  const fetched = await fetchInputs([AGGREGATES_SPEC], source, rules)
  const aggregates = await readAggregates(fetched.files(AGGREGATES_INPUT), rules)
  const side = sideFromRows(aggregates.source, [])
  return {
    rules,
    core: {
      baseline: side,
      candidate: side,
      trust: { runs: null, dataset: null, manifests: { baseline: null, candidate: null, dataset: null } },
      seeds: { baseline: [side], candidate: [side] }
    },
    evidence: new Map(),
    aggregates
  }
}

/**
 * The first rules key whose evidence is per query or per file beside the rows: the core's own (runs and
 * judgments, clusters), then each capability's `needsRows`, in registry order.
 */
function rowsOnlyKey(rules: Rules, registry: readonly Capability[]): string | undefined {
  if (rules.judgments !== undefined) return 'judgments'
  if (rules.statistics.cluster !== undefined) return 'statistics.cluster'
  for (const { capability, config } of activeCapabilities(rules, registry)) {
    const key = capability.needsRows(config, rules)
    if (key !== undefined) return key
  }
  return undefined
}

/**
 * Rules that switch on something the aggregates cannot carry are refused with its key (here, and by `sql`
 * before it writes a statement whose result the gate would refuse).
 */
export function refuseRowsOnly(rules: Rules, registry: readonly Capability[] = CAPABILITIES): void {
  const key = rowsOnlyKey(rules, registry)
  if (key === undefined) return
  throw new InputError(
    { file: rules.source.file, key },
    `reads the rows (or files beside them), which warehouse aggregates do not carry`,
    `gate the rows (--baseline B --candidate C), or compute what ${key} needs where the rows are and keep it out of these rules`
  )
}

/** What src/gate.ts runs on in place of the paired rows: a table without rows, the engine over the sums, the report's note. */
export interface FromSums {
  table: PairedTable
  stats: StatsEngine
  outcome: CapabilityOutcome
}

/**
 * The aggregates in place of the pairing and of the rows' engine (src/gate.ts): the coverage the SQL counted (its
 * refusals as the pairing's), the engine over the sums, and the report's words for them. It has no per-query
 * values: no regressed-query list, no histogram of differences (the report says so).
 */
export function fromAggregates(
  rules: Rules,
  aggregates: Aggregates,
  options: StatsOptions & { registry?: readonly Capability[] } = {}
): FromSums {
  refuseRowsOnly(rules, options.registry ?? CAPABILITIES)
  const table: PairedTable = {
    ids: [],
    metrics: new Map(
      [...rules.metrics.keys()].map((m) => [m, { base: new Float64Array(0), cand: new Float64Array(0) }])
    ),
    attrs: new Map(),
    coverage: coverageOf(rules, aggregates)
  }
  const stats = createAggregateStats(aggregates, rules, options)
  refuseEmptyWhere(rules, stats)
  return { table, stats, outcome: aggregatesOutcome(aggregates) }
}

/** What the pairing of rows would have counted, from the SQL's counts; its refusals, with an example id. */
function coverageOf(rules: Rules, aggregates: Aggregates): Coverage {
  const count = (stat: string): number => aggregates.coverage.get(stat)?.count ?? 0
  const example = (stat: string): string => {
    const e = aggregates.coverage.get(stat)?.example ?? ''
    return e === '' ? '' : ` (for example ${quote(e)})`
  }
  const file = aggregates.source
  const refuse = (stat: string, problem: string, hint: string): void => {
    if (count(stat) > 0) throw new InputError({ file }, `${count(stat)} ${problem}${example(stat)}`, hint)
  }
  refuse('missing_ids', 'rows have no query id', 'every row needs its query id')
  refuse(
    'baseline_repeated',
    "query ids appear more than once in the baseline's rows",
    'one row per query on each side'
  )
  refuse(
    'candidate_repeated',
    "query ids appear more than once in the candidate's rows",
    'one row per query on each side'
  )
  for (const a of familyAttributes(rules))
    refuse(`missing_attribute:${a}`, `of the baseline's queries have no ${a}`, `every query of the exam needs its ${a}`)
  const zero = rules.queries.missing === 'zero'
  if (!zero) {
    refuse(
      'only_in_baseline',
      'queries are in the baseline only',
      'evaluate the candidate on every query of the baseline, or set queries.missing: zero in the rules'
    )
    refuse(
      'only_in_candidate',
      'queries are in the candidate only',
      "evaluate the candidate on the exam's queries (the baseline's)"
    )
  }
  const filled: Coverage['filled'] = []
  for (const m of rules.metrics.keys()) {
    for (const side of ['baseline', 'candidate']) {
      if (!zero)
        refuse(
          `missing_value:${side}:${m}`,
          `${side} values of ${m} are missing`,
          'every paired query needs every metric of the rules as a number, or set queries.missing: zero'
        )
      refuse(
        `invalid_value:${side}:${m}`,
        `${side} values of ${m} are not finite, not 0/1 for a binary metric, or outside its range`,
        'fix the rows, or the metric in the rules'
      )
    }
    filled.push({
      metric: m,
      baseline: zero ? count(`filled:baseline:${m}`) : 0,
      candidate: zero ? count(`filled:candidate:${m}`) : 0
    })
  }
  const paired = count('baseline_rows')
  return {
    baselineRows: paired,
    candidateRows: count('candidate_rows'),
    paired,
    onlyInBaseline: [],
    onlyInCandidate: [],
    candidateOnlyIgnored: zero ? count('only_in_candidate') : 0,
    attributes: { names: familyAttributes(rules), candidateValuesCompared: 0 },
    filled,
    missingPolicy: rules.queries.missing,
    runs: { baseline: null, candidate: null },
    notes: [
      `read from warehouse aggregates, ${aggregates.source}: sums per subset and stratum, no per-query values${zero && count('only_in_baseline') + count('only_in_candidate') > 0 ? ` (${count('only_in_baseline')} queries in the baseline only, ${count('only_in_candidate')} in the candidate only: counted, not listed)` : ''}`
    ]
  }
}

/** A check whose `where` selects no query is refused, as from rows (src/align/pair.ts). */
function refuseEmptyWhere(rules: Rules, stats: StatsEngine): void {
  for (const check of rules.checks) {
    if (check.where.length === 0) continue
    if (stats.compare(check.metric, check.where).n === 0) {
      const [name, value] = check.where[0]
      throw new InputError(
        { file: rules.source.file, line: check.line, key: `checks[${check.index}].where.${name}` },
        `no query has ${check.where.map(([k, v]) => `${k} = ${quote(v)}`).join(' and ')}`,
        `check the values of ${name} (${quote(value)}) in the rows the SQL read`
      )
    }
  }
}

/** The report's words for the aggregates: where they came from, and what a report from them cannot show. */
function aggregatesOutcome(aggregates: Aggregates): CapabilityOutcome {
  const rest = ` The statistics are the rows' own (docs/scale.md); per-query lists (the regressed queries, the pictures of the differences) need the rows.`
  return {
    name: 'aggregates',
    guards: [],
    summary: { source: aggregates.source, shards: aggregates.shards },
    parts: {
      blocks: {
        head: () => [
          paragraph(em(words('Read from warehouse aggregates: '), text(aggregates.source, 400), words(`.${rest}`)))
        ]
      },
      json: () => ['aggregates', { source: aggregates.source, shards: aggregates.shards, per_query: false }]
    }
  }
}
