import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { InputError } from '../errors.js'
import { suggestion } from '../util/did-you-mean.js'
import { quote } from '../util/show.js'
import { sha256 } from '../util/hash.js'
import { RULES_SCHEMA } from './schema.js'
import type { Fail, SchemaType } from './schema-type.js'
import { trustRules } from './trust-rules.js'
import { referenceRules } from './reference-rules.js'
import { parseAmount, type Margin } from './amount.js'
import { judgeRules } from './judge-rules.js'
import type { CheckKind, CheckRule, MetricRule, Rules } from './types.js'
import { parseSource, type SourceDocument } from './yaml-source.js'
import { measureRange } from './measures.js'

/**
 * Defaults for keys the rules may leave out; the report always states the values in force, and `init` writes
 * them out in the starter rules (src/commands/init.ts), so a starter file reads as the gate would without them.
 */
export const DEFAULTS = {
  confidence: 0.95,
  resamples: 10000,
  seed: '1',
  missing: 'error' as const,
  minPerSlice: 30,
  onInconclusive: 'fail' as const
}

// validateSchema: false: the schema itself is checked by the tests (it is ours), not on every start (~10 ms).
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateSchema: false })
/** Compiled validators by schema: the core's, or one assembled from a capability registry (src/capabilities/). */
const validators = new WeakMap<object, ValidateFunction<RawRules>>()

function validatorOf(schema: object): ValidateFunction<RawRules> {
  let validate = validators.get(schema)
  if (validate === undefined) {
    // Without its $id: ajv keeps one schema per $id, and each registry's schema is its own.
    const { $id: _id, ...anonymous } = schema as { $id?: string }
    validate = ajv.compile<RawRules>(anonymous)
    validators.set(schema, validate)
  }
  return validate
}

/**
 * Reads a rules file (YAML or JSON text) into typed {@link Rules}: schema validation (ajv, against the
 * published schema) first, then the checks a schema cannot express. Every refusal names the file, the line
 * and the key, with a "did you mean" for misspelt keys and metric names. `schema` is the core's, or the one
 * src/capabilities/rules-schema.ts assembles with every capability's rules keys (they arrive in `rules.extra`).
 */
export function loadRules(text: string, file: string, schema: object = RULES_SCHEMA): Rules {
  const validate = validatorOf(schema)
  const source = parseSource(text, file, 'rules')
  const data = source.data
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new InputError(
      { file, line: 1 },
      'the rules must be a mapping (key: value) at the top level',
      'retrieval-gate init --baseline B --candidate C writes a starter rules file from your two files'
    )
  }
  refuseNonFinite(data, [], source, file)
  if (!validate(data)) throw schemaError(pickError(validate.errors ?? []), source, file)
  return toRules(data, source, file, sha256(text))
}

/** The top-level keys the core's schema does not declare: a capability's, validated by its fragment. */
function capabilityKeys(raw: RawRules): ReadonlyMap<string, unknown> {
  const core = RULES_SCHEMA.properties as Record<string, unknown>
  return new Map(Object.entries(raw).filter(([key]) => !Object.hasOwn(core, key)))
}

/** The rules file as written, typed from its schema (src/config/schema.ts), which ajv has already checked. */
type RawRules = SchemaType<typeof RULES_SCHEMA>
type RawCheck = RawRules['checks'][number]

function toRules(raw: RawRules, source: SourceDocument, file: string, hash: string): Rules {
  const fail = (path: Array<string | number>, message: string, hint?: string): never => {
    throw new InputError({ file, line: source.lineOf(path), key: keyPath(path) }, message, hint)
  }
  const missing = raw.queries?.missing ?? DEFAULTS.missing
  const metrics = metricRules(raw, { missing, fail })
  // The range a margin or threshold is judged against: the declared one, or a ranking measure's own when runs are scored.
  const runs = raw.judgments !== undefined || raw.dataset !== undefined
  for (const m of metrics.values()) {
    const bounds = m.range ?? (runs ? measureRange(m.name) : undefined)
    if (bounds !== undefined) m.bounds = bounds
  }
  const confidence = raw.statistics?.confidence ?? DEFAULTS.confidence
  const checks = checkRules(raw, { metrics, confidence, source, fail })
  checkDesignTests(raw, checks, fail)
  return {
    version: 1,
    metrics,
    slices: raw.slices ?? [],
    statistics: {
      confidence,
      resamples: raw.statistics?.resamples ?? DEFAULTS.resamples,
      seed: raw.statistics?.seed === undefined ? DEFAULTS.seed : String(raw.statistics.seed),
      ...statisticsOptions(raw.statistics ?? {}, fail),
      ...(raw.statistics?.min_seeds === undefined ? {} : { minSeeds: raw.statistics.min_seeds }),
      ...(raw.statistics?.seeds === undefined ? {} : { seeds: seedCounts(raw.statistics.seeds) })
    },
    queries: {
      missing,
      minPerSlice: raw.queries?.min_per_slice ?? DEFAULTS.minPerSlice,
      ...(raw.queries?.file === undefined ? {} : { file: raw.queries.file })
    },
    onInconclusive: raw.on_inconclusive ?? DEFAULTS.onInconclusive,
    // Defaults to on_inconclusive, so rules written before on_too_few existed keep their verdicts.
    onTooFew: raw.on_too_few ?? raw.on_inconclusive ?? DEFAULTS.onInconclusive,
    checks,
    source: { file, sha256: hash },
    ...trustRules(raw, fail),
    ...referenceRules(raw, checks, fail),
    judge: judgeRules(raw.judge, new Set(metrics.keys()), fail),
    extra: capabilityKeys(raw)
  }
}

/** Each metric of the rules, in name order: its direction, kind, range and fill checked against each other. */
function metricRules(raw: RawRules, at: { missing: 'error' | 'zero'; fail: Fail }): Map<string, MetricRule> {
  const { missing, fail } = at
  const metrics = new Map<string, MetricRule>()
  for (const name of Object.keys(raw.metrics).sort()) {
    const m = raw.metrics[name]
    const binary = m.binary ?? false
    let range = m.range ? ([m.range[0], m.range[1]] as [number, number]) : undefined
    if (range && !(range[0] < range[1]))
      fail(['metrics', name, 'range'], `range [${range[0]}, ${range[1]}] is empty`, 'write [min, max] with min < max')
    if (binary) {
      if (range && (range[0] !== 0 || range[1] !== 1))
        fail(['metrics', name, 'range'], 'a binary metric takes the values 0 and 1', 'drop range or make it [0, 1]')
      range = [0, 1]
    }
    if (missing === 'zero' && m.fill === undefined && range === undefined) {
      // Without a range nothing says which value is the worst: a 0 is the best latency and, for a score that can
      // be negative (a log-likelihood, a similarity), better than the queries a candidate would rather leave out.
      fail(
        ['metrics', name],
        m.better === 'lower'
          ? `queries.missing is "zero" but ${name} is better lower, so a 0 would look like the best possible value`
          : `queries.missing is "zero" but ${name} has no range, so nothing says a 0 is its worst value (a score below 0 would make leaving a query out pay)`,
        m.better === 'lower'
          ? `give ${name} a "fill" value (e.g. the timeout) to score a missing query with`
          : `give ${name} a range (its worst value is then the fill) or a "fill" value: its worst, e.g. fill: 0 for a count`
      )
    }
    if (m.fill !== undefined && range && (m.fill < range[0] || m.fill > range[1]))
      fail(['metrics', name, 'fill'], `fill ${m.fill} is outside the range`, 'choose a value inside the range')
    const worst = range && (m.better === 'higher' ? range[0] : range[1])
    if (m.fill !== undefined && worst !== undefined && m.fill !== worst) {
      fail(
        ['metrics', name, 'fill'],
        `fill ${m.fill} is better than the worst value of ${name} (${worst}, the ${m.better === 'higher' ? 'low' : 'high'} end of its range), so a candidate that leaves out its worst queries would score better than one that answers them`,
        `fill a missing query with ${worst}`
      )
    }
    metrics.set(name, {
      name,
      better: m.better,
      binary,
      range,
      unit: m.unit ?? '',
      fill: m.fill ?? worst
    })
  }
  return metrics
}

/** Each check of the rules: its metric known, its name its own, one demand, its kind and budget read. */
function checkRules(
  raw: RawRules,
  at: { metrics: Map<string, MetricRule>; confidence: number; source: SourceDocument; fail: Fail }
): CheckRule[] {
  const { metrics, confidence, source, fail } = at
  const checks: CheckRule[] = []
  const names = new Map<string, number>()
  raw.checks.forEach((c, index) => {
    const at = ['checks', index]
    const metric = metrics.get(c.metric)
    if (!metric)
      fail(
        [...at, 'metric'],
        `check "${c.name}" names metric "${c.metric}", which is not under metrics${suggestion(c.metric, metrics.keys())}`,
        'add it under metrics with its direction, or fix the name'
      )
    const previous = names.get(c.name)
    if (previous !== undefined)
      fail(
        [...at, 'name'],
        `two checks are named "${c.name}" (checks[${previous}] and checks[${index}])`,
        'give each check its own name'
      )
    names.set(c.name, index)
    const kinds = (['non_inferior', 'superior', 'max_regressions', 'at_least', 'at_most'] as const).filter(
      (k) => c[k] !== undefined
    )
    if (kinds.length !== 1) {
      fail(
        at,
        kinds.length === 0
          ? `check "${c.name}" says what to compare but not what to demand`
          : `check "${c.name}" has ${kinds.join(' and ')}; a check demands exactly one thing`,
        'give it one of non_inferior, superior, max_regressions, at_least or at_most (split it into several checks if needed)'
      )
    }
    const site: CheckSite = { metric: metric as MetricRule, at, fail }
    const kind = toKind(c, confidence, site)
    checks.push({
      index,
      name: c.name,
      metric: c.metric,
      where: Object.keys(c.where ?? {})
        .sort()
        .map((k) => [k, (c.where as Record<string, string>)[k]]),
      perSlice: c.per_slice,
      kind,
      line: source.lineOf(at),
      budget: toBudget(c.budget, kind, raw.reference !== undefined, site)
    })
  })
  return checks
}

/**
 * McNemar counts queries as independent and equally weighted: it cannot honour statistics.cluster or
 * statistics.weights, so a McNemar check under either is refused rather than silently testing another
 * population (the bootstrap and the randomization test use the design).
 */
function checkDesignTests(raw: RawRules, checks: CheckRule[], fail: Fail): void {
  refuseOneClusterSets(raw, checks, fail)
  const design =
    raw.statistics?.cluster !== undefined
      ? 'statistics.cluster'
      : raw.statistics?.weights !== undefined
        ? 'statistics.weights'
        : undefined
  if (design === undefined) return
  for (const c of checks) {
    if (c.kind.type === 'superior' && c.kind.test === 'mcnemar') {
      fail(
        ['checks', c.index, 'superior', 'test'],
        `McNemar treats queries as independent and unweighted, so it cannot apply ${design}`,
        'use test: bootstrap, which resamples clusters and applies the target weights'
      )
    }
  }
}

/**
 * Clusters are resampled within a check's set of queries: a set cut out by the cluster attribute itself (a
 * per_slice or where on it, or target weights by it) holds one cluster per slice or stratum, whose variability
 * cannot be estimated. Such an interval collapses to a point and would pass any margin; it is refused here, by
 * name. A coarser attribute that happens to give one cluster per slice is made inconclusive per unit (decide).
 */
function refuseOneClusterSets(raw: RawRules, checks: CheckRule[], fail: Fail): void {
  const cluster = raw.statistics?.cluster
  if (cluster === undefined) return
  const hint = `cluster on a finer attribute than the slices (users within segments), or drop statistics.cluster for this comparison`
  if (raw.statistics?.weights?.by === cluster)
    fail(
      ['statistics', 'weights', 'by'],
      `statistics.weights.by is the cluster attribute "${cluster}": every stratum would hold a single cluster`,
      hint
    )
  for (const c of checks) {
    if (c.perSlice === cluster)
      fail(
        ['checks', c.index, 'per_slice'],
        `per_slice is the cluster attribute "${cluster}": each slice would be one cluster, whose interval collapses to a point`,
        hint
      )
    if (c.where.some(([k]) => k === cluster))
      fail(
        ['checks', c.index, 'where', cluster],
        `where selects by the cluster attribute "${cluster}": the check's queries would be one cluster, whose interval collapses to a point`,
        hint
      )
  }
}

/**
 * YAML reads `.inf`, `.nan` and `1e400` as numbers, and the JSON Schema's type "number" lets them through:
 * an infinite margin could never fail and a NaN fill would poison every statistic, so any non-finite
 * number anywhere in the rules is refused with its key and line before anything else.
 */
function refuseNonFinite(value: unknown, path: Array<string | number>, source: SourceDocument, file: string): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new InputError(
        { file, line: source.lineOf(path), key: keyPath(path) || '(top level)' },
        `${String(value)} is not a finite number`,
        'write a plain decimal number (.inf, .nan and values beyond 1.8e308 are not allowed)'
      )
    }
    return
  }
  if (Array.isArray(value)) value.forEach((v, i) => refuseNonFinite(v, [...path, i], source, file))
  else if (value !== null && typeof value === 'object')
    for (const k of Object.keys(value))
      refuseNonFinite((value as Record<string, unknown>)[k], [...path, k], source, file)
}

/** statistics.seeds as written (one number for both sides, or per side) as the two counts. */
function seedCounts(raw: number | { baseline: number; candidate: number }): { baseline: number; candidate: number } {
  return typeof raw === 'number'
    ? { baseline: raw, candidate: raw }
    : { baseline: raw.baseline, candidate: raw.candidate }
}

/** The statistics keys beyond confidence/resamples/seed; target weights are checked here (that they name values present in the data is checked when the design is built). */
function statisticsOptions(
  raw: NonNullable<RawRules['statistics']>,
  fail: Fail
): Omit<Rules['statistics'], 'confidence' | 'resamples' | 'seed'> {
  let weights: Rules['statistics']['weights']
  if (raw.weights) {
    const target = Object.keys(raw.weights.target)
      .sort()
      .map((k) => [k, raw.weights?.target[k] as number] as [string, number])
    const total = target.reduce((s, [, w]) => s + w, 0)
    if (Math.abs(total - 1) > 1e-9) {
      fail(
        ['statistics', 'weights', 'target'],
        `the target weights sum to ${total}, not 1`,
        'give each value its share of the target population, e.g. { established: 0.5, new: 0.5 }'
      )
    }
    weights = { by: raw.weights.by, target }
  }
  // Without clusters every query is its own unit: cluster weighting would silently weigh queries, not clusters.
  if (raw.cluster_weighting === 'cluster' && raw.cluster === undefined) {
    fail(
      ['statistics', 'cluster_weighting'],
      'cluster_weighting is "cluster", but statistics names no cluster attribute, so every query would still count once',
      'add statistics.cluster: the attribute whose values are the clusters (e.g. cluster: user), or drop cluster_weighting'
    )
  }
  return {
    interval: raw.interval ?? 'auto',
    // Absent stays absent (= auto), so rules without it read exactly as before.
    ...(raw.method === undefined ? {} : { method: raw.method }),
    permutations: raw.permutations ?? raw.resamples ?? DEFAULTS.resamples,
    cluster: raw.cluster,
    clusterWeighting: raw.cluster_weighting ?? 'query',
    weights,
    multiplicity: raw.multiplicity ?? 'none'
  }
}

/**
 * The demand of one check, refusing the ones that could never fail (vacuous: they pass whatever the
 * candidate does) or never pass: a margin as wide as the metric's range, a relative non-inferiority margin
 * of 100% or more on a metric that cannot go below 0, a regression threshold no query can exceed, a share
 * of 1. The bounds are the metric's (`site.metric.bounds`): its declared range, or a ranking measure's own in runs mode.
 */
function toKind(c: RawCheck, confidence: number, site: CheckSite): CheckKind {
  const { metric, at, fail } = site
  const bounds = metric.bounds
  if (c.non_inferior) return { type: 'non_inferior', margin: toAmount(c.non_inferior.margin, 'non_inferior', site) }
  if (c.at_least !== undefined || c.at_most !== undefined) return toLevel(c, site)
  if (c.superior) {
    const test = c.superior.test ?? 'bootstrap'
    if (test === 'mcnemar' && !metric.binary) {
      fail(
        [...at, 'superior', 'test'],
        `McNemar compares pass/fail outcomes, but ${metric.name} is not declared binary`,
        `mark ${metric.name} "binary: true" if its values are 0/1, or use test: bootstrap`
      )
    }
    const tests = { mcnemar: 'McNemar', t: 'the paired t-test', randomization: 'the randomization test' } as const
    if (test !== 'bootstrap' && c.superior.margin !== undefined) {
      fail(
        [...at, 'superior', 'margin'],
        `${tests[test]} tests "no difference"; it takes no margin`,
        'drop margin, or use test: bootstrap (its interval must clear the margin)'
      )
    }
    if (test === 'bootstrap' && c.superior.alpha !== undefined) {
      fail(
        [...at, 'superior', 'alpha'],
        `test: bootstrap decides on the interval at statistics.confidence (${Number((confidence * 100).toPrecision(12))}%) and reads no alpha: this alpha would change nothing`,
        'add test: t, randomization or mcnemar (binary metrics) to decide on p < alpha, or drop alpha and set statistics.confidence'
      )
    }
    return {
      type: 'superior',
      test,
      alpha: c.superior.alpha ?? 1 - confidence,
      margin: toAmount(c.superior.margin ?? 0, 'superior', site)
    }
  }
  const r = c.max_regressions as NonNullable<RawCheck['max_regressions']>
  if (r.count === undefined && r.share === undefined)
    fail([...at, 'max_regressions'], 'max_regressions needs count or share', 'e.g. max_regressions: { count: 10 }')
  if (r.share !== undefined && r.share >= 1) {
    fail(
      [...at, 'max_regressions', 'share'],
      `share ${r.share} allows every query to regress, so the check could never fail`,
      'write the largest share of queries allowed to get worse, below 1 (e.g. 0.1)'
    )
  }
  const threshold = r.threshold ?? 0
  if (bounds && threshold >= bounds[1] - bounds[0]) {
    fail(
      [...at, 'max_regressions', 'threshold'],
      `threshold ${threshold} is not below the whole range of ${metric.name} [${bounds[0]}, ${bounds[1]}]: no query can get worse by more than that, so the check could never fail`,
      "the threshold is a drop in the metric's units (0.1 = ten points of a 0..1 metric); leave it out to count any drop"
    )
  }
  return { type: 'max_regressions', count: r.count, share: r.share, threshold }
}

/**
 * An at_least / at_most check: the direction must be the metric's (a floor on a better-lower metric is no
 * guardrail), and a level the metric can never cross is refused: a floor at or below the lowest value it can take
 * could never fail, one above the highest could never pass (and the same for a ceiling).
 */
function toLevel(c: RawCheck, site: CheckSite): CheckKind {
  const { metric, at, fail } = site
  const bounds = metric.bounds
  const bound = c.at_least !== undefined ? 'at_least' : 'at_most'
  const raw = c[bound] as number | { value: number }
  const value = typeof raw === 'number' ? raw : raw.value
  const path = [...at, bound]
  const wanted = metric.better === 'higher' ? 'at_least' : 'at_most'
  if (bound !== wanted) {
    fail(
      path,
      `${metric.name} is better ${metric.better}, so ${bound} would bound it on the wrong side (a ${bound === 'at_least' ? 'floor' : 'ceiling'} on a metric that should go ${metric.better === 'higher' ? 'up' : 'down'})`,
      `write ${wanted}: ${value} for the level it must reach, or check the metric's direction`
    )
  }
  if (bounds !== undefined) {
    const [lo, hi] = bounds
    const never =
      bound === 'at_least'
        ? value <= lo
          ? 'fail'
          : value > hi
            ? 'pass'
            : null
        : value >= hi
          ? 'fail'
          : value < lo
            ? 'pass'
            : null
    if (never !== null) {
      fail(
        path,
        `${bound} ${value} is outside what ${metric.name} can take beyond its range [${lo}, ${hi}], so the check could never ${never}`,
        `write a level inside the range, in the metric's units (0.35 of a 0..1 metric)`
      )
    }
  }
  return { type: 'level', bound, value }
}

/** One check as its margin, level and budget are read: they are judged against its metric, and refused at its key. */
interface CheckSite {
  /** The check's metric; its `bounds` (the declared range, or a ranking measure's own in runs mode) limit what may be asked. */
  metric: MetricRule
  /** The check's path in the rules (`['checks', i]`): a refusal names the key under it. */
  at: Array<string | number>
  fail: Fail
}

/**
 * A check's budget: a drop allowed since the reference, refused where it could never be spent (and the
 * budget could never fail): on a check without a reference, on max_regressions (a count of queries, not a
 * drop of the mean), as wide as the metric's range or wider, or 100% or more of the reference mean of a
 * higher-is-better metric that cannot go below 0. The bounds are the metric's, as for margins.
 */
function toBudget(
  value: number | string | undefined,
  check: { type: CheckRule['kind']['type'] },
  hasReference: boolean,
  site: CheckSite
): Margin | undefined {
  if (value === undefined) return undefined
  const { at, fail } = site
  const path = [...at, 'budget']
  if (!hasReference)
    fail(
      path,
      "a budget is spent against the rules' reference, and the rules name none",
      "add reference: { name: v1.4, path: eval/release/rows.csv, ref: v1.4 } (the last release's per-query rows), or drop budget"
    )
  if (check.type === 'max_regressions')
    fail(
      path,
      'max_regressions counts regressed queries against the baseline; a budget is a drop of the mean since the reference',
      'put the budget on a non_inferior (or superior) check of the same metric'
    )
  return toAmount(value, 'budget', site)
}

/**
 * The words of an amount's refusals: its name, where a fall to 0 is counted from (undefined: a rise, never refused
 * as one), what could never happen, an example in units.
 */
const AMOUNT_WORDS = {
  non_inferior: ['margin', '', 'the check could never fail', '0.02 is two points'],
  superior: ['margin', undefined, 'the check could never pass', '0.02 is two points'],
  budget: ['budget', ' since the reference', 'it could never be exceeded', '0.01 is one point']
} as const

/**
 * A non_inferior or superior margin (at `checks[i].<kind>.margin`) or a budget (at `checks[i].budget`), refused where
 * it could never be spent: relative, 100% or more of the mean of a higher-is-better metric that cannot go below 0
 * (it never falls that far; not for superior, whose margin is a rise); absolute, as wide as the metric's bounds.
 */
function toAmount(value: number | string, kind: keyof typeof AMOUNT_WORDS, site: CheckSite): Margin {
  const { metric, fail } = site
  const bounds = metric.bounds
  const [name, since, never, units] = AMOUNT_WORDS[kind]
  const path = kind === 'budget' ? [...site.at, kind] : [...site.at, kind, 'margin']
  const amount = parseAmount(value)
  // A higher-is-better metric that cannot go below 0 never falls by 100% of its mean or more.
  const floored = since !== undefined && metric.better === 'higher' && (bounds === undefined || bounds[0] >= 0)
  if (amount.relative) {
    if (floored && amount.value >= 1)
      fail(
        path,
        `${name} ${amount.text} allows ${metric.name} to fall to 0 (or below)${since}, so ${never}`,
        `write a relative ${name} below 100% (e.g. "5%"), or an absolute one in the metric's units`
      )
  } else if (bounds && amount.value >= bounds[1] - bounds[0]) {
    fail(
      path,
      `${name} ${amount.text} is larger than the whole range of ${metric.name} [${bounds[0]}, ${bounds[1]}] or equal to it, so ${never}`,
      `${name}s are in the metric's units: ${units} of a 0..1 metric`
    )
  }
  return amount
}

/** ajv reports every branch of a failed oneOf; the most useful error is a typo, then the deepest path. */
function pickError(errors: ErrorObject[]): ErrorObject {
  const typo = errors.find((e) => e.keyword === 'additionalProperties')
  if (typo) return typo
  const meaningful = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf')
  const pool = meaningful.length > 0 ? meaningful : errors
  // Deepest path first; at equal depth, a branch that fits the value's type (pattern, minimum) explains more than "must be number".
  const rank = (e: ErrorObject): number => e.instancePath.split('/').length * 2 + (e.keyword === 'type' ? 0 : 1)
  return pool.reduce((best, e) => (rank(e) > rank(best) ? e : best), pool[0])
}

function schemaError(error: ErrorObject, source: SourceDocument, file: string): InputError {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p))
  const where = { file, line: source.lineOf(path), key: keyPath(path) || '(top level)' }
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty)
      const allowed = allowedKeys(error.parentSchema)
      return new InputError(
        { file, line: source.keyLine(path, key) ?? where.line, key: keyPath([...path, key]) },
        `unknown key "${key}"${suggestion(key, allowed)}`,
        allowed.length > 0 ? `allowed here: ${allowed.join(', ')}` : undefined
      )
    }
    case 'required':
      return new InputError(
        where,
        `missing required key "${String(params.missingProperty)}"`,
        'see the rules reference in the README'
      )
    case 'type': {
      const actual = typeOfValue(source.data, path)
      const hint =
        actual === 'string' && String(params.type).includes('number') ? 'write the number without quotes' : undefined
      return new InputError(where, `must be ${article(String(params.type))}, not ${actual}`, hint)
    }
    case 'enum':
      return new InputError(
        where,
        `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
      )
    case 'const':
      return new InputError(where, `must be ${JSON.stringify(params.allowedValue)}`)
    case 'pattern': {
      // Named by its key (`margin`, `workflow`; a list's items by the list's), with what the key takes: the
      // schema's `title` beside the pattern, else the pattern itself.
      const name = [...path].reverse().find((p) => typeof p === 'string') ?? 'value'
      const takes =
        (error.parentSchema as { title?: string } | undefined)?.title ?? `text matching ${String(params.pattern)}`
      return new InputError(
        where,
        `${quote(String(readAt(source.data, path)))} is not a valid ${name}`,
        `write ${takes}`
      )
    }
    case 'minProperties': {
      const n = Number(params.limit)
      return new InputError(where, `must name at least ${n} key${n === 1 ? '' : 's'}`, whatItTakes(error, path))
    }
    default:
      return new InputError(where, error.message ?? 'is not valid', whatItTakes(error, path))
  }
}

/**
 * What to do about a value the schema refuses: the first sentence of what its key takes (its description), or
 * where the rules reference describes the key.
 */
function whatItTakes(error: ErrorObject, path: ReadonlyArray<string | number>): string {
  const about = (error.parentSchema as { description?: unknown } | undefined)?.description
  if (typeof about !== 'string' || about === '') {
    const key = path
      .map((p) => (typeof p === 'number' ? '[]' : `.${p}`))
      .join('')
      .slice(1)
    return `see ${key || 'the top level'} in the rules reference (docs/rules.md)`
  }
  const end = about.search(/(?<!e\.g|i\.e)[.;](\s|$)/)
  return `it takes: ${end < 0 ? about : about.slice(0, end)}`
}

function allowedKeys(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties
  return props ? Object.keys(props).filter((k) => k !== '$schema') : []
}

function readAt(data: unknown, path: Array<string | number>): unknown {
  let cur: unknown = data
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<string | number, unknown>)[p]
  }
  return cur
}

function typeOfValue(data: unknown, path: Array<string | number>): string {
  const v = readAt(data, path)
  if (v === null) return 'empty'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  if (typeof v === 'string') return 'string'
  return typeof v
}

function article(type: string): string {
  const words = type
    .split(',')
    .map((t) => (t === 'object' ? 'a mapping' : t === 'array' ? 'a list' : t === 'integer' ? 'an integer' : `a ${t}`))
  return words.join(' or ')
}

/** `checks[2].non_inferior.margin` from ['checks', 2, 'non_inferior', 'margin']. */
function keyPath(path: ReadonlyArray<string | number>): string {
  let out = ''
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p
  return out
}
