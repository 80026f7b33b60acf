import { blockState, xoshiro128ss } from '../../src/stats/rng.js'

/** Local bindings: a global lookup of Math per call is slow in some hosts (Jest's vm context: 100x). */
const { log, sqrt, cos, floor, min, max, PI, SQRT1_2 } = Math

/**
 * The simulated evaluations of the calibration study (npm run calibrate; docs/statistics.md, "Calibration"):
 * every design has a known true mean difference, and each simulated evaluation is drawn from its own stream
 * (design name, index), so the same options give the same table.
 */

/** A 32-bit generator and its uniform and normal draws. */
export interface Draws {
  uniform: () => number
  normal: () => number
}

/** The draws of simulation `index` of the design named `name` (seeded: the same name and index, the same draws). */
export function drawsOf(seed: string, name: string, index: number): Draws {
  const next = xoshiro128ss(blockState(seed, name, index))
  const uniform = (): number => (next() + 0.5) / 4294967296
  // Box-Muller, cosine branch only: two uniforms in (0, 1) per draw.
  const normal = (): number => sqrt(-2 * log(uniform())) * cos(2 * PI * uniform())
  return { uniform, normal }
}

/** A design of independent queries: per-query differences (and, binary, the baseline/candidate 0/1 values). */
export interface QueryDesign {
  name: string
  /** binary: hit@k differences in {−1, 0, 1}; continuous: any real difference. */
  binary: boolean
  queries: number
  /** The true mean difference; the non-inferiority margin is −truth (the truth sits exactly at the margin). */
  truth: number
  /** The metric's declared range, if any. */
  range: [number, number] | undefined
  /** One simulated evaluation's differences (binary: base and cand too). */
  draw(d: Draws): { diff: Float64Array; base?: Float64Array; cand?: Float64Array }
}

/** hit@k: each query lost with probability `lost`, gained with `gained`, else tied (baseline hit rate 0.6). */
export function hitDesign(name: string, queries: number, lost: number, gained: number): QueryDesign {
  return {
    name,
    binary: true,
    queries,
    truth: gained - lost,
    range: [0, 1],
    draw({ uniform }) {
      const diff = new Float64Array(queries)
      const base = new Float64Array(queries)
      const cand = new Float64Array(queries)
      for (let i = 0; i < queries; i++) {
        const u = uniform()
        if (u < lost) base[i] = 1
        else if (u < lost + gained) cand[i] = 1
        else base[i] = cand[i] = uniform() < 0.6 ? 1 : 0
        diff[i] = cand[i] - base[i]
      }
      return { diff, base, cand }
    }
  }
}

/** Right-skewed continuous differences: truth + 0.2·(Exp(1) − 1) (the friendly design of the first study). */
export function exponentialDesign(name: string, queries: number, truth: number): QueryDesign {
  return {
    name,
    binary: false,
    queries,
    truth,
    range: undefined,
    draw({ uniform }) {
      return { diff: Float64Array.from({ length: queries }, () => truth + 0.2 * (-log(uniform()) - 1)) }
    }
  }
}

/**
 * Most queries unchanged, a few small gains, rare large losses (a recall-like metric in [0, 1]): a share `lost` of
 * the queries loses U(0.3, 0.9), a share `gained` gains U(0, 0.1), the rest do not move.
 */
export function rareLossDesign(name: string, queries: number, lost: number, gained: number): QueryDesign {
  return {
    name,
    binary: false,
    queries,
    truth: -lost * 0.6 + gained * 0.05,
    range: [0, 1],
    draw({ uniform }) {
      const diff = new Float64Array(queries)
      for (let i = 0; i < queries; i++) {
        const u = uniform()
        if (u < lost) diff[i] = -(0.3 + 0.6 * uniform())
        else if (u < lost + gained) diff[i] = 0.1 * uniform()
      }
      return { diff }
    }
  }
}

/**
 * Judge-score-like differences (an LLM judge's 0..1 score, continuous, no grid): 90% of the queries move by
 * N(+0.02, 0.05), 10% lose U(0.3, 0.6) (the answer broke).
 */
export function judgeScoreDesign(name: string, queries: number, lost = 0.1): QueryDesign {
  return {
    name,
    binary: false,
    queries,
    truth: (1 - lost) * 0.02 - lost * 0.45,
    range: [0, 1],
    draw({ uniform, normal }) {
      return {
        diff: Float64Array.from({ length: queries }, () =>
          uniform() < lost ? -(0.3 + 0.3 * uniform()) : 0.02 + 0.05 * normal()
        )
      }
    }
  }
}

/** A clustered design: per query its difference and its cluster label. */
export interface ClusterDesign {
  name: string
  binary: boolean
  clusters: number
  truth: number
  range: [number, number] | undefined
  draw(d: Draws): { diff: Float64Array; labels: string[] }
}

/**
 * The first study's clustered designs: `clusters` clusters of `size` queries. Binary: P(lost) = 0.16 + a,
 * P(gained) = 0.14 − a with a cluster effect a (intra-class correlation about 0.1); continuous: −0.02 +
 * 0.2·(e + c)/√2 with Exp(1) − 1 noise e and a normal cluster effect c (intra-class correlation 0.5).
 */
export function friendlyClusterDesign(name: string, binary: boolean, clusters: number, size: number): ClusterDesign {
  const margin = 0.02
  return {
    name,
    binary,
    clusters,
    truth: -margin,
    range: binary ? [0, 1] : undefined,
    draw({ uniform, normal }) {
      const diff = new Float64Array(clusters * size)
      const labels: string[] = []
      for (let g = 0; g < clusters; g++) {
        const shift = normal()
        for (let j = 0; j < size; j++) {
          const i = g * size + j
          labels.push(`c${g}`)
          if (binary) {
            const a = 0.1 * min(1.2, max(-1.2, shift))
            const lost = 0.15 + margin / 2 + a
            const gained = 0.15 - margin / 2 - a
            const u = uniform()
            diff[i] = u < lost ? -1 : u < lost + gained ? 1 : 0
          } else diff[i] = -margin + 0.2 * SQRT1_2 * (-log(uniform()) - 1 + shift)
        }
      }
      return { diff, labels }
    }
  }
}

/**
 * The effect concentrated in a few clusters: each of `clusters` clusters (sizes 5–20, uniform) is hit with
 * probability `hit` and then loses 0.3 per query, else gains 0.05; queries add N(0, 0.1) noise. The truth is
 * the query-weighted mean, hit·(−0.3) + (1 − hit)·0.05 (sizes are independent of hits).
 */
export function fewClustersDesign(name: string, clusters: number, hit: number): ClusterDesign {
  return {
    name,
    binary: false,
    clusters,
    truth: hit * -0.3 + (1 - hit) * 0.05,
    range: [-1, 1],
    draw({ uniform, normal }) {
      const values: number[] = []
      const labels: string[] = []
      for (let g = 0; g < clusters; g++) {
        const size = 5 + floor(uniform() * 16)
        const effect = uniform() < hit ? -0.3 : 0.05
        for (let j = 0; j < size; j++) {
          values.push(effect + 0.1 * normal())
          labels.push(`c${g}`)
        }
      }
      return { diff: Float64Array.from(values), labels }
    }
  }
}

/**
 * Seed replicates: per side, seed s and query q, score = a_q + [candidate: b_q] + g_s + e_sq, with a_q ~ N(0, 0.2)
 * (cancels in the pairing), b_q ~ N(0, 0.1) the change's per-query effect, g_s ~ N(0, seedSd) training luck (a
 * fresh draw per seed and side) and e_sq ~ N(0, 0.05); 100 queries; true difference 0.
 */
export interface SeedDesign {
  name: string
  baselineSeeds: number
  candidateSeeds: number
  seedSd: number
  /** The baseline's training noise when it differs from the candidate's (default: seedSd). */
  baselineSeedSd?: number
  queries: number
}

export function drawSeeds(design: SeedDesign, d: Draws): { base: Float64Array[]; cand: Float64Array[] } {
  const n = design.queries
  const a = Float64Array.from({ length: n }, () => d.normal() * 0.2)
  const b = Float64Array.from({ length: n }, () => d.normal() * 0.1)
  const side = (seeds: number, change: boolean): Float64Array[] =>
    Array.from({ length: seeds }, () => {
      const g = d.normal() * (change ? design.seedSd : (design.baselineSeedSd ?? design.seedSd))
      return Float64Array.from({ length: n }, (_, q) => a[q] + (change ? b[q] : 0) + g + d.normal() * 0.05)
    })
  return { base: side(design.baselineSeeds, false), cand: side(design.candidateSeeds, true) }
}

/**
 * Judge anchors: `items` items with a human label on a scale of `labels.length` labels (drawn with these
 * probabilities); each judge gives the human label with its accuracy, else one of the others uniformly. The
 * baseline's judge has kappa `kappa`, the candidate's kappa − `drop` (the drift guard's margin: a false pass of
 * max_drop = drop is a pass here).
 */
export interface JudgeDesign {
  name: string
  items: number
  labels: number[]
  kappa: number
  drop: number
}

/** Population kappa of a judge with accuracy `accuracy` against human labels with probabilities `labels`. */
export function trueKappa(labels: readonly number[], accuracy: number): number {
  const k = labels.length
  let observed = 0
  let chance = 0
  for (let j = 0; j < k; j++) {
    observed += labels[j] * accuracy
    // P(judge = j) = P(h = j)·acc + Σ_{h≠j} P(h)·(1 − acc)/(k − 1)
    const judged = labels[j] * accuracy + (1 - labels[j]) * ((1 - accuracy) / (k - 1))
    chance += labels[j] * judged
  }
  return (observed - chance) / (1 - chance)
}

/** The accuracy that gives a judge this population kappa (bisection; kappa rises with accuracy above chance). */
export function accuracyFor(labels: readonly number[], kappa: number): number {
  let lo = 1 / labels.length
  let hi = 1
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2
    if (trueKappa(labels, mid) < kappa) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

/** One simulated anchor set: per item the human label and both judges' labels. */
export function drawAnchors(design: JudgeDesign, d: Draws): Array<[number, number, number]> {
  const k = design.labels.length
  const accB = accuracyFor(design.labels, design.kappa)
  const accC = accuracyFor(design.labels, design.kappa - design.drop)
  const pick = (): number => {
    let u = d.uniform()
    for (let j = 0; j < k - 1; j++) {
      if (u < design.labels[j]) return j
      u -= design.labels[j]
    }
    return k - 1
  }
  const judge = (h: number, accuracy: number): number =>
    d.uniform() < accuracy ? h : (h + 1 + floor(d.uniform() * (k - 1))) % k
  return Array.from({ length: design.items }, () => {
    const h = pick()
    return [h, judge(h, accB), judge(h, accC)]
  })
}
