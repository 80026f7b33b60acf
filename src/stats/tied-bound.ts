/**
 * An interval for the mean difference when every observed difference is the same value c (a candidate identical
 * to the baseline on every query: c = 0). The spread is 0, so no t or bootstrap interval has width, and a point is
 * no evidence: unseen queries may differ. What the data do bound is how many could: if a share p of the
 * population had another difference, n units would all agree with probability (1 − p)^n, so with confidence
 * 1 − alpha/2 the share is below p_u = 1 − (alpha/2)^(1/n) (the "rule of three", about 3.7/n at 95%). Those differ
 * from c by at most the metric's declared range R in either direction, so the mean lies in
 *
 *   [c − p_u·(R + c), c + p_u·(R − c)]   (clipped to [−R, R]),
 *
 * with coverage at least 1 − alpha/2 (two one-sided statements about one share). It is the continuous counterpart
 * of the score interval of a binary metric with every query tied (±z²/(n + z²), src/stats/score-interval.ts):
 * 1,000 identical queries on a metric in [0, 1] bound the change to ±0.0037; 40 only to ±0.088.
 */
export function tiedBound(common: number, units: number, range: number, confidence: number): [number, number] {
  const share = -Math.expm1(Math.log((1 - confidence) / 2) / units)
  return [Math.max(-range, common - share * (range + common)), Math.min(range, common + share * (range - common))]
}
