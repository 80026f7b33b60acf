import type { CheckRule, MetricRule, Rules } from '../config/types.js'
import { readRules } from '../load.js'
import { activeCapabilities } from '../capabilities/registry.js'
import {
  describeCheck,
  describePolicies,
  familyConfidenceFromRules,
  familySizeFromRules,
  type CheckDescription
} from '../decide/describe.js'
import type { Reason } from '../decide/types.js'
import { smallestMargin } from '../stats/reliability.js'
import { levelLaw } from '../stats/law.js'
import { confidenceLabel, fixed } from '../report/format.js'
import { amount, inPoints, sliceLabel } from '../report/words.js'
import { sanitizeText } from '../util/show.js'

/**
 * `explain`: what each check of a rules file will demand, in plain words, before any result exists. The
 * sentences word decide's own description of each check (src/decide/describe.ts: which reasons pass, fail or
 * are inconclusive, how each inconclusive one counts, the intervals' confidence), so they cannot drift from
 * src/decide/evaluate.ts. Written for a reviewer of the rules file, who should be able to say "yes, that is the
 * bar" without reading the statistics.
 */

/** "95%" or "97.5%": the reports' one confidence label (src/report/format.ts). */
const pct = confidenceLabel

/** A number as the user would write it (no trailing zeros, at most 6 decimals). */
function plain(x: number): string {
  return fixed(x, 6)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '')
}

/** A margin for a bound: "-0.02 (-2.0 points)", "+20% of the baseline mean"; unsigned (`''`): "0.02 (2.0 points)". */
function signedMargin(
  sign: '-' | '+' | '',
  margin: { value: number; relative: boolean; text: string },
  metric: MetricRule,
  short = false
): string {
  if (margin.value === 0) return '0'
  if (margin.relative) return `${sign}${margin.text} of the baseline mean`
  const shown = !short && (inPoints(metric) || metric.unit) ? ` (${sign}${amount(margin.value, metric, false)})` : ''
  return `${sign}${plain(margin.value)}${shown}`
}

/** Which queries a check looks at, in words. */
function scope(check: CheckRule): string {
  const where = check.where.length > 0 ? `for ${sliceLabel(check.where)}` : 'over all queries'
  if (check.perSlice === undefined) return where
  const within = check.where.length > 0 ? ` (within ${sliceLabel(check.where)})` : ''
  return `for every value of ${check.perSlice}${within}, each value judged on its own`
}

function direction(metric: MetricRule): string {
  const kind = metric.binary ? ', 0/1' : metric.range ? `, ${plain(metric.range[0])} to ${plain(metric.range[1])}` : ''
  return `${metric.better} is better${kind}${metric.unit ? `, in ${metric.unit}` : ''}`
}

/** How an inconclusive unit with `reason` counts under the description (it must be one the check can have). */
function countsOf(d: CheckDescription, reason: Reason): 'pass' | 'fail' {
  return (d.inconclusive.find((i) => i.reason === reason) as CheckDescription['inconclusive'][number]).counts
}

/** What the sentences about one check read: the check, its metric, its description and the words shared. */
interface Explained {
  check: CheckRule
  rules: Rules
  metric: MetricRule
  d: CheckDescription
  higher: boolean
  /** The confidence as words ("95%" or "family-adjusted"). */
  conf: string
  /** "the change in M (candidate - baseline) for …" */
  change: string
  lines: string[]
}

const TEST_NAMES = {
  mcnemar: 'exact McNemar test',
  t: 'paired t-test',
  randomization: 'paired randomization test'
} as const

/** The sentences about one check. */
function explainCheck(check: CheckRule, rules: Rules): string[] {
  const metric = rules.metrics.get(check.metric) as MetricRule
  const d = describeCheck(check, rules)
  const x: Explained = {
    check,
    rules,
    metric,
    d,
    higher: metric.better === 'higher',
    conf: d.confidence === null ? 'family-adjusted' : pct(d.confidence),
    change: `the change in ${metric.name} (candidate - baseline)${check.where.length > 0 || check.perSlice !== undefined ? ` ${scope(check)}` : ''}`,
    lines: []
  }
  x.lines.push(
    `${check.index + 1}. "${check.name}": ${metric.name} (${direction(metric)}) ${scope(check)} [${headOf(check)}]`
  )
  const kind = check.kind
  if (d.test === 'non_inferior' && kind.type === 'non_inferior') nonInferiorLines(x, kind)
  else if (d.test === 'superior_bootstrap' && kind.type === 'superior') superiorBootstrapLines(x, kind)
  else if (kind.type === 'superior') testLines(x, kind)
  else if (kind.type === 'level') levelLines(x, kind)
  else if (kind.type === 'max_regressions') {
    regressionLines(x, kind)
    return x.lines
  }
  closingLines(x)
  return x.lines
}

type Kind<T extends CheckRule['kind']['type']> = Extract<CheckRule['kind'], { type: T }>

/** The check's demand in brackets: its kind, margin, test or level. */
function headOf(check: CheckRule): string {
  const kind = check.kind
  if (kind.type === 'non_inferior') return `non_inferior, margin ${kind.margin.text}`
  if (kind.type === 'superior')
    return kind.test === 'bootstrap'
      ? `superior, bootstrap${kind.margin.value > 0 ? `, margin ${kind.margin.text}` : ''}`
      : `superior, ${TEST_NAMES[kind.test]}, alpha ${plain(kind.alpha)}`
  if (kind.type === 'level') return `${kind.bound} ${plain(kind.value)}`
  return 'max_regressions'
}

/** How the check's inconclusive units count, as decide resolves them (asked only of a check that has that reason). */
function inconclusiveCounts(x: Explained): string {
  return `counts as a ${countsOf(x.d, 'interval_crosses_margin')} (on_inconclusive: ${x.rules.onInconclusive})`
}

function notShown(x: Explained): string {
  return `which always counts as a ${countsOf(x.d, 'not_shown_better')}: a superior check must be shown${x.rules.onInconclusive === 'pass' ? ' (on_inconclusive: pass does not apply to it)' : ''}`
}

function nonInferiorLines(x: Explained, kind: Kind<'non_inferior'>): void {
  const { higher, metric, d, conf, change, lines } = x
  const worstBound = higher ? 'lower' : 'upper'
  const otherBound = higher ? 'upper' : 'lower'
  const bar = signedMargin(higher ? '-' : '+', kind.margin, metric)
  const short = signedMargin(higher ? '-' : '+', kind.margin, metric, true)
  const past = higher ? 'below' : 'above'
  if (countsOf(d, 'interval_crosses_margin') === 'fail') {
    lines.push(`   Fails if the ${worstBound} ${conf} bound of ${change} is ${past} ${bar}.`)
    lines.push(
      `   (When even the ${otherBound} bound is ${past} ${short} the candidate is shown worse; when the interval straddles ${short} it is inconclusive, which ${inconclusiveCounts(x)}.)`
    )
  } else {
    lines.push(
      `   Fails only if the ${otherBound} ${conf} bound of ${change} is ${past} ${bar} (shown worse by more than the margin).`
    )
    lines.push(
      `   Passes if the ${worstBound} bound is not ${past} ${short}; when the interval straddles ${short} it is inconclusive, which ${inconclusiveCounts(x)}.`
    )
  }
}

function superiorBootstrapLines(x: Explained, kind: Kind<'superior'>): void {
  const { higher, metric, conf, change, lines } = x
  const goodBound = higher ? 'lower' : 'upper'
  const bar = signedMargin(higher ? '+' : '-', kind.margin, metric)
  const short = signedMargin(higher ? '+' : '-', kind.margin, metric, true)
  const beyond = higher ? 'above' : 'below'
  lines.push(
    `   Passes only if the ${goodBound} ${conf} bound of ${change} is ${beyond} ${bar} (a gain${kind.margin.value > 0 ? ` of more than ${signedMargin('', kind.margin, metric)}` : ''} is shown).`
  )
  lines.push(
    `   Fails if the whole interval is on the other side of ${short} (shown not better); otherwise inconclusive (not shown better), ${notShown(x)}.`
  )
}

/** A superior check decided by a test of "no change" (exact McNemar, paired t, randomization) at alpha. */
function testLines(x: Explained, kind: Kind<'superior'>): void {
  const { higher, metric, d, lines } = x
  const multiplicity = x.rules.statistics.multiplicity
  const adjusted = multiplicity === 'none' ? '' : ` (${multiplicity}-adjusted over the family)`
  const alpha = plain(kind.alpha)
  if (d.test === 'superior_mcnemar')
    lines.push(
      `   Passes only if the exact McNemar p-value${adjusted} is below ${alpha} and more queries ${higher ? 'gained (0 -> 1) than lost (1 -> 0)' : 'went from 1 to 0 than went from 0 to 1'}.`
    )
  else
    lines.push(
      `   Passes only if the p-value${adjusted} of the ${d.test === 'superior_t' ? "paired t-test (two-sided, under the rules' design)" : 'paired randomization (sign-flip) test (two-sided)'} of "no change" is below ${alpha} and the mean of ${metric.name} ${higher ? 'rose' : 'fell'}.`
    )
  lines.push(
    `   Fails if p is below ${alpha} with ${d.test === 'superior_mcnemar' ? 'the balance the other way' : 'the mean moving the other way'} (shown worse); otherwise inconclusive (not shown better), ${notShown(x)}.`
  )
}

function levelLines(x: Explained, kind: Kind<'level'>): void {
  const { higher, metric, d, check, rules, lines } = x
  const worse = higher ? 'lower' : 'upper'
  const better = higher ? 'upper' : 'lower'
  const side = higher ? 'at least' : 'at most'
  const miss = higher ? 'below' : 'above'
  const where = check.where.length > 0 || check.perSlice !== undefined ? ` ${scope(check)}` : ''
  lines.push(
    `   Passes if the ${worse} ${pct(rules.statistics.confidence)} bound of the candidate's mean ${metric.name}${where} (${levelLaw(rules.statistics, metric) === 'exact' ? "Clopper–Pearson's exact interval" : "a skew-corrected t interval, never narrower than Student's t nor than the range allows unseen queries to change"}) is ${side} ${plain(kind.value)}.`
  )
  lines.push(
    `   Fails if even the ${better} bound is ${miss} ${plain(kind.value)}; when the interval contains ${plain(kind.value)} it is inconclusive, which counts as a ${countsOf(d, 'interval_crosses_level')} (on_inconclusive: ${rules.onInconclusive}).`
  )
}

function regressionLines(x: Explained, kind: Kind<'max_regressions'>): void {
  const { higher, metric, d, check, lines } = x
  const limits: string[] = []
  if (kind.count !== undefined) limits.push(`more than ${kind.count} ${kind.count === 1 ? 'query' : 'queries'}`)
  if (kind.share !== undefined) limits.push(`more than ${pct(kind.share)} of the compared queries (rounded down)`)
  const worse = higher ? 'dropped' : 'rose'
  const threshold = { value: kind.threshold, relative: false, text: '' }
  const by = kind.threshold > 0 ? ` by more than ${signedMargin('', threshold, metric)}` : ''
  const among =
    check.perSlice !== undefined
      ? ` within any one value of ${check.perSlice}${check.where.length > 0 ? ` (among ${sliceLabel(check.where)})` : ''}`
      : check.where.length > 0
        ? ` among ${sliceLabel(check.where)}`
        : ''
  lines.push(
    `   Fails if ${limits.join(' or ')}${among} got worse on ${metric.name}: ${worse}${by}, comparing each query's candidate value with its baseline value.`
  )
  if (d.inconclusive.length === 0 && d.minQueries === null)
    lines.push(
      '   Never inconclusive; min_per_slice does not apply. A query whose change is not a finite number fails the check.'
    )
}

/** Per value, too few queries, the fewest that can pass, and the budget. */
function closingLines(x: Explained): void {
  const { metric, d, check, rules, lines, higher } = x
  const kind = check.kind
  if (d.perSlice !== null)
    lines.push(
      `   Judged separately for every value of ${d.perSlice}: the check fails if any value fails, else is inconclusive if any value is.`
    )
  lines.push(
    `   Inconclusive with fewer than ${d.minQueries} queries${d.perSlice !== null ? ' (in a value)' : ''}, which ${tooFewWords(rules, check)}; fails if a statistic is not a finite number.`
  )
  if (d.fewestToPass !== null)
    lines.push(
      `   ${kind.type === 'level' ? `Can pass only from ${d.fewestToPass} queries${d.perSlice !== null ? ' in a value' : ''}, even with every query at the best value` : `An unchanged candidate can pass only from ${d.fewestToPass} queries${d.perSlice !== null ? ' in a value' : ''} (a better one may pass on fewer, a worse one needs more)`}: on fewer, the queries not seen could change ${metric.name} more than ${kind.type === 'level' ? 'the level' : 'the margin'} allows, anywhere in its range (docs/statistics.md, "The reliability rule"); such a unit is inconclusive, which ${tooFewWords(rules, check)}.`
    )
  if (check.budget !== undefined && rules.reference !== undefined) {
    const drop = higher ? 'drop' : 'rise'
    lines.push(
      `   Budget: also fails when the ${drop} of ${metric.name} since the reference ${rules.reference.label} (candidate - reference, same statistics${d.perSlice !== null ? ', per value' : ''}) is shown beyond ${check.budget.relative ? `${check.budget.text} of the reference mean` : plain(check.budget.value)}; when its interval straddles the budget it counts as a ${rules.onInconclusive} (on_inconclusive: ${rules.onInconclusive}).`
    )
  }
}

/**
 * "counts as a pass (on_too_few: pass)": how a check with too few queries counts; a superior check's always fails
 * (too few queries show no gain either: src/decide/counts.ts).
 */
function tooFewWords(rules: Rules, check?: CheckRule): string {
  if (check?.kind.type === 'superior')
    return 'counts as a fail: a superior check must be shown (on_too_few does not apply to it)'
  return `counts as a ${describePolicies(rules).on_too_few} (on_too_few: ${rules.onTooFew})`
}

/**
 * Every capability the rules ask for by a key (the one `needsRows` names), with its key and what it defends
 * against (`Capability.about`): from the registry, so a new capability is listed without an edit here.
 */
function alsoConfigured(rules: Rules): string[] {
  const lines = activeCapabilities(rules).flatMap(({ capability, config }) => {
    const key = capability.needsRows(config, rules)
    return key === undefined ? [] : [`  ${capability.name} (rules ${key}): ${capability.about}.`]
  })
  return lines.length === 0 ? [] : ['Also configured (see the report and docs/architecture.md):', ...lines]
}

/** Every sentence `explain` prints for a rules file. Pure and deterministic. */
function explainRules(rules: Rules): string {
  const stats = rules.statistics
  const L: string[] = []
  const n = rules.checks.length
  L.push(`Rules: ${rules.source.file} (sha256 ${rules.source.sha256.slice(0, 12)})`)
  if (rules.judgments !== undefined) {
    const from =
      rules.judgments.qrels !== undefined ? `the judgments in ${rules.judgments.qrels}` : 'the judgments of the dataset'
    const depth = rules.judgments.depth !== undefined ? `, rankings cut at depth ${rules.judgments.depth}` : ''
    L.push(
      `Inputs: baseline and candidate are runs; ranking measures are computed per query from ${from}, as trec_eval does${depth}; judged queries without a relevant document: ${rules.judgments.noRelevant}.`
    )
  } else {
    L.push('Inputs: per-query rows (one record per query, paired by query id).')
  }
  L.push(`Metrics: ${[...rules.metrics.values()].map((m) => `${m.name} (${direction(m)})`).join('; ')}.`)
  if (stats.interval === 'auto') {
    L.push(
      `Statistics: two-sided ${pct(stats.confidence)} intervals chosen by metric type and design (statistics.interval auto): Tango's score interval for a binary metric on independent queries, Hall's skew-corrected t otherwise (clusters: clusters − 1 degrees of freedom; seeds: t over seeds and queries), never narrower than Student's t. Seed ${stats.seed}: the same inputs give the same report.`,
      `  What n queries can show: on a metric with a range, no interval is narrower than what a share of unseen queries could change (the rule of three: at ${pct(stats.confidence)}, ${[30, 100, 1000].map((n) => `${n} queries ${pct(smallestMargin(n, 1, stats.confidence))}`).join(', ')} of the range); a metric without a range needs 28 + 25·skewness² queries (Sugden's rule). docs/statistics.md, "The reliability rule".`
    )
  } else {
    const method = stats.interval === 'bca' ? 'bias-corrected and accelerated (BCa)' : 'percentile'
    L.push(
      `Statistics: two-sided ${pct(stats.confidence)} paired bootstrap intervals (${method}), ${stats.resamples} resamples, seed ${stats.seed}: the same inputs give the same report.`
    )
  }
  if (stats.cluster !== undefined) {
    L.push(
      `  Clusters: queries with the same ${stats.cluster} are resampled together; ${stats.clusterWeighting === 'cluster' ? 'every cluster counts once (mean of cluster means)' : 'every query counts once'}.`
    )
  }
  if (stats.weights !== undefined) {
    L.push(
      `  Target weights by ${stats.weights.by}: ${stats.weights.target.map(([v, w]) => `${v} ${plain(w)}`).join(', ')} (the estimate is the weighted mean of the per-value means).`
    )
  }
  if (stats.minSeeds !== undefined) {
    L.push(
      `  Seeds: each side must give at least ${stats.minSeeds} independently trained ${stats.minSeeds === 1 ? 'seed' : 'seeds'} (one file each); with fewer every check is inconclusive (too_few_seeds). With several seeds per side the intervals include the spread between seeds.`
    )
  }
  const multiplicity = stats.multiplicity
  if (multiplicity !== 'none') {
    const m = familySizeFromRules(rules)
    const size =
      m === null
        ? 'm statistical units (one per non_inferior / superior check, one per slice value of a per_slice check, counted on the data)'
        : `${m} statistical ${m === 1 ? 'unit' : 'units'}`
    const each = m === null ? `1 - ${plain(1 - stats.confidence)}/m` : pct(familyConfidenceFromRules(rules) as number)
    L.push(
      `  Multiplicity (${multiplicity}): the family has ${size}; every interval below is computed at ${each} confidence instead of ${pct(stats.confidence)}, and McNemar p-values are ${multiplicity}-adjusted.`
    )
  }
  L.push(
    rules.queries.missing === 'error'
      ? 'Queries: a query on one side only, or a missing metric value, stops the gate (exit 2) with the ids (queries.missing: error).'
      : `Queries: the baseline's are the exam. A query the candidate dropped, or a missing value, scores the metric's fill value (${fills(rules)}) and is counted in the report; a query only the candidate has is ignored and counted, never compared (queries.missing: zero).`
  )
  if (rules.slices.length > 0)
    L.push(`Slices shown in the report (exploratory, not gating): ${rules.slices.join(', ')}.`)
  L.push(...alsoConfigured(rules))
  const checks = `${n} ${n === 1 ? 'check counts' : 'checks count'}`
  const policies = describePolicies(rules)
  if (policies.on_inconclusive === 'fail' && policies.on_too_few === 'fail') {
    L.push(`Verdict: pass only if all ${checks} as pass; an inconclusive check counts as a fail.`)
  } else {
    const superior = rules.checks.some((c) => c.kind.type === 'superior')
      ? `; a superior check not shown better (too few queries included) always counts as a ${policies.superior_must_be_shown} (it must be shown)`
      : ''
    const open =
      policies.on_inconclusive === 'fail'
        ? 'counts as a fail'
        : 'counts as a pass (choose this knowingly: a non_inferior check then passes unless the data show it was violated)'
    L.push(
      `Verdict: pass only if all ${checks} as pass. A check the data neither prove nor refute ${open} (on_inconclusive: ${rules.onInconclusive})${superior}; ` +
        `a check with fewer than ${rules.queries.minPerSlice} queries ${tooFewWords(rules)}.`
    )
  }
  L.push('')
  for (const check of rules.checks) {
    L.push(...explainCheck(check, rules))
    L.push('')
  }
  L.push(
    'A pass means: on these queries, every check above held. It says nothing about metrics, slices or queries the rules do not name.'
  )
  // Names come from the rules (a YAML "a\nb" key is a name with a newline): each entry is one line, escaped as one.
  return L.map((line) => sanitizeText(line, Number.MAX_SAFE_INTEGER)).join('\n') + '\n'
}

/** `explain --rules R`: loads the rules (refusing them as the gate would) and prints the explanation. */
export async function explainCommand(file: string, write: (text: string) => void): Promise<void> {
  write(explainRules(await readRules(file)))
}

/** Each metric's fill as `name fill`, the values a dropped query scores under queries.missing: zero. */
function fills(rules: Rules): string {
  return [...rules.metrics.values()].map((m) => `${m.name} ${plain(m.fill ?? Number.NaN)}`).join(', ')
}
