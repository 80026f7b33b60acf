import type { MetricRule } from '../config/types.js'
import { fixed } from './format.js'
import { inPoints } from './words.js'

/** Most bins on each side of zero. */
const MAX_BINS_PER_SIDE = 6

/** One bar of the histogram of per-query differences. */
export interface Bin {
  /** Axis label in display units ("-10 to -5", "0", "+1"): words, not "..", so neighbouring labels never run together. */
  label: string
  count: number
  /** Which way the queries in this bin moved, in the metric's direction. */
  side: 'worse' | 'same' | 'better'
}

/** Each side's mark before a bin's label, in every picture of the histogram: ▼ worse, = no change, ▲ better. */
export const SIDE_SYMBOL: Record<Bin['side'], string> = { worse: '▼', same: '=', better: '▲' }

/** The histogram and what it left out (non-finite differences are counted, never binned silently). */
export interface Histogram {
  bins: Bin[]
  /** Bin width in metric units (0 when all differences are 0; 1 for binary metrics). */
  step: number
  nonFinite: number
}

/**
 * The smallest of 1, 2, 2.5, 5 x 10^k at least x: a bin width a person reads at a glance. Powers of ten
 * are stepped by multiplication (no logarithms), so the result is the same on every machine.
 */
export function niceStep(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1
  let p = 1
  while (p > x) p /= 10
  while (p * 10 <= x) p *= 10
  for (const f of [1, 2, 2.5, 5, 10]) if (f * p >= x) return f * p
  return 10 * p
}

function label(x: number, metric: MetricRule): string {
  const v = inPoints(metric) ? x * 100 : x
  const s = fixed(v, 3)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '')
  return s === '-0' ? '0' : s
}

/**
 * Bins the per-query differences (candidate - baseline) of a metric with fixed, deterministic edges:
 * symmetric around zero, width {@link niceStep}(max |difference| / 6), at most 6 bins a side, plus a bin of
 * exact ties. Losses fall in [-k*w, -(k-1)*w), gains in ((k-1)*w, k*w]. A binary metric gets three bins
 * (-1, 0, +1). Showing both sides even when one is empty is deliberate: the shape the mean hides (many
 * small gains against a few large losses) is the point of the picture.
 */
export function histogram(differences: ArrayLike<number>, metric: MetricRule): Histogram {
  const up = metric.better === 'higher' ? 1 : -1
  const sideOf = (sign: number): Bin['side'] => (sign === 0 ? 'same' : sign * up > 0 ? 'better' : 'worse')
  let nonFinite = 0
  let maxAbs = 0
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i]
    if (!Number.isFinite(d)) nonFinite++
    else if (Math.abs(d) > maxAbs) maxAbs = Math.abs(d)
  }
  if (metric.binary) {
    const counts = [0, 0, 0]
    for (let i = 0; i < differences.length; i++) {
      const d = differences[i]
      if (Number.isFinite(d)) counts[d < 0 ? 0 : d > 0 ? 2 : 1]++
    }
    return {
      step: 1,
      nonFinite,
      bins: [
        { label: '-1', count: counts[0], side: sideOf(-1) },
        { label: '0', count: counts[1], side: 'same' },
        { label: '+1', count: counts[2], side: sideOf(1) }
      ]
    }
  }
  if (maxAbs === 0) {
    let ties = 0
    for (let i = 0; i < differences.length; i++) if (differences[i] === 0) ties++
    return { step: 0, nonFinite, bins: [{ label: '0', count: ties, side: 'same' }] }
  }
  const step = niceStep(maxAbs / MAX_BINS_PER_SIDE)
  const k = Math.max(1, Math.min(MAX_BINS_PER_SIDE, Math.ceil(maxAbs / step)))
  const neg = new Array<number>(k).fill(0)
  const pos = new Array<number>(k).fill(0)
  let ties = 0
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i]
    if (!Number.isFinite(d)) continue
    if (d === 0) ties++
    else {
      // Bin j (1-based) holds (j-1)*w < |d| <= j*w: losses -j*w <= d < -(j-1)*w, gains (j-1)*w < d <= j*w.
      const j = Math.ceil(Math.abs(d) / step)
      const idx = Math.min(k, Math.max(1, j)) - 1
      if (d < 0) neg[idx]++
      else pos[idx]++
    }
  }
  const bins: Bin[] = []
  for (let j = k; j >= 1; j--)
    bins.push({
      label: `${label(-j * step, metric)} to ${label(-(j - 1) * step, metric)}`,
      count: neg[j - 1],
      side: sideOf(-1)
    })
  bins.push({ label: '0', count: ties, side: 'same' })
  for (let j = 1; j <= k; j++)
    bins.push({
      label: `${label((j - 1) * step, metric)} to ${label(j * step, metric)}`,
      count: pos[j - 1],
      side: sideOf(1)
    })
  return { step, nonFinite, bins }
}
