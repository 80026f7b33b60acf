import { normalQuantile, tQuantile } from './special.js'

/** Power the "smallest detectable difference" and "queries to settle it" figures are computed for. */
const POWER = 0.8

/**
 * Minimum detectable effect: the true difference this evaluation finds with 80% power by an interval at
 * `confidence`, MDE = (t_{1−alpha/2, df} + t_{0.8, df}) · se, with se the design's standard error
 * (cluster-robust when clustered) and df its degrees of freedom (n − 1, or clusters − 1): Student's t, not the
 * normal, because the interval's own width is estimated (z is 2–9% too small at 12–50 queries). Example: se =
 * 0.01 at 95% with 29 df gives (2.045230 + 0.853625) · 0.01 = 0.028989 (scipy.stats.t.ppf(0.975, 29) +
 * t.ppf(0.8, 29)); with df = Infinity it is the normal figure 0.028016. NaN without spread (se 0: every
 * difference equal): the sample says nothing about what it could detect, and "about 0.0 points" would say it
 * detects everything.
 */
export function minimumDetectable(se: number, confidence: number, df: number, power = POWER): number {
  if (!(df > 0) || !(se > 0)) return Number.NaN
  const q = (p: number): number => (df === Infinity ? normalQuantile(p) : tQuantile(p, df))
  return (q(1 - (1 - confidence) / 2) + q(power)) * se
}

/** What {@link queriesToSettle} needs: the evaluation as it stands and the distance the planned truth lies from the boundary. */
export interface SettleInput {
  /** Queries now. */
  n: number
  /** Standard error now, and its degrees of freedom. */
  se: number
  df: number
  /** Resampled units now (queries, or clusters): the degrees of freedom grow with them. */
  units: number
  /** |planned true difference − the check's boundary|: for non_inferior with "no true change" planned, the margin. */
  distance: number
  confidence: number
}

/**
 * About how many more queries (at the same cluster sizes) an evaluation needs for an interval at `confidence`
 * to clear the check's boundary with 80% power, if the true difference is the PLANNED one (a non-inferiority
 * check plans "no change": distance = margin), never the observed one: an observed difference is itself noise,
 * and sizing on it promises what the data cannot know. se shrinks as 1/√n and the degrees of freedom grow with
 * the units, so n' solves n' = n · (MDE(n')/distance)² (a few fixed-point steps; MDE falls as n' grows). Null when
 * nothing can settle it (distance 0, no spread, no degree of freedom).
 */
export function queriesToSettle(input: SettleInput, power = POWER): number | null {
  const { n, se, df, units, distance, confidence } = input
  if (!(distance > 0) || !(se > 0) || !(n > 0) || !(df > 0) || !(units > 0)) return null
  let needed = n
  for (let i = 0; i < 50; i++) {
    const grownDf = Math.max(df, df + units * (needed / n - 1))
    const next = n * Math.pow(minimumDetectable(se, confidence, grownDf, power) / distance, 2)
    if (!Number.isFinite(next)) return null
    if (Math.abs(next - needed) < 1e-9 * needed) break
    needed = next
  }
  return Math.max(0, Math.ceil(needed - n))
}
