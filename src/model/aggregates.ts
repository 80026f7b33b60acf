/**
 * A warehouse's aggregates as the gate holds them after reading and merging the shards (src/readers/aggregates.ts):
 * the sums `retrieval-gate sql` computes (src/stats/warehouse-sql.ts), per subset, stratum and metric, added over
 * shards. Everything a comparison needs from the rows is here, and nothing per query.
 */

/**
 * The columns of every row of the aggregates format (docs/scale.md, "The aggregates format"), in the order
 * `retrieval-gate sql` writes them (src/stats/warehouse-sql.ts) and the gate reads them (src/readers/aggregate-rows.ts).
 */
export const AGGREGATE_COLUMNS = [
  'section',
  'shard',
  'family',
  'value',
  'stratum',
  'metric',
  'stat',
  'slot',
  'x',
  'y'
] as const

/** One metric's sums over one stratum of one subset. */
export interface MetricSums {
  sum: number
  sumAbs: number
  sumBaseline: number
  sumCandidate: number
  /** Σ (d − mean)² and Σ (d − mean)³ about the stratum's mean (shards merged with Chan's formulas). */
  m2: number
  m3: number
  /** The same about the candidate values' mean (a level check's interval). */
  m2Candidate: number
  m3Candidate: number
  wins: number
  losses: number
  gained: number
  lost: number
  /** Queries past a max_regressions check's threshold, by the check's index. */
  regressions: Map<number, number>
  /** Σ w·d per resample (resample order), w the query's Poisson weight. */
  poisson: Float64Array
  /** Σ d over the queries whose sign is −1, per sign pattern. */
  minus: Float64Array
  /** The distinct differences (ascending) and their counts, when every shard with queries here sent them; else null. */
  histogram: { values: Float64Array; counts: Float64Array } | null
}

/** One stratum (a value of statistics.weights.by, or '' without weights) of one subset. */
export interface StratumSums {
  value: string
  n: number
  /** Σ w per resample. */
  weights: Float64Array
  /** In the rules' metric order. */
  metrics: MetricSums[]
}

/** One subset: a family of src/config/subset-families.ts and a value of its attribute ('' without one). */
export interface SubsetSums {
  family: number
  value: string
  /** Strata with queries, sorted by value (code units), as the design orders them. */
  strata: StratumSums[]
}

/** What the pairing would have counted, from the `coverage` rows: a count and one example id per problem. */
export interface AggregateCount {
  count: number
  example: string
}

export interface Aggregates {
  /** The files read, for the report ("aggregates a.parquet (3 shards)"). */
  source: string
  shards: string[]
  /** `all`: the Poisson and sign sums are there; `histograms`: left out (sql --histograms-only). */
  sums: 'all' | 'histograms'
  coverage: Map<string, AggregateCount>
  subsets: SubsetSums[]
}
