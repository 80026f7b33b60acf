import { normalQuantile } from './special.js'

/** Power the "smallest detectable difference" and "queries to settle it" figures are computed for. */
const POWER = 0.8

/**
 * Minimum detectable effect: the true difference this evaluation finds with 80% power by an interval at
 * `confidence`, MDE = (z_{1−alpha/2} + z_{0.8}) · se. With se the design's standard error (cluster-robust
 * when clustered) this is also the clustered equivalent. Example: se = 0.01 at 95% gives
 * (1.959964 + 0.841621) · 0.01 = 0.028016.
 */
export function minimumDetectable(se: number, confidence: number, power = POWER): number {
  return (normalQuantile(1 - (1 - confidence) / 2) + normalQuantile(power)) * se
}

/**
 * About how many more queries would settle an inconclusive check, if the true difference were the one
 * observed: the interval must clear the boundary by `distance` (= |observed − boundary|), which needs
 * se' = distance / (z_{1−alpha/2} + z_{0.8}); se shrinks as 1/√n at the same cluster sizes, so
 * n' = n · (se / se')². Null when it cannot be settled (distance 0, or no spread).
 */
export function moreQueriesToSettle(n: number, se: number, distance: number, confidence: number, power = POWER): number | null {
  if (!(distance > 0) || !(se > 0) || !(n > 0)) return null
  const needed = n * Math.pow(minimumDetectable(se, confidence, power) / distance, 2)
  if (!Number.isFinite(needed)) return null
  return Math.max(0, Math.ceil(needed - n))
}
