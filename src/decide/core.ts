import type { Direction } from '../config/types.js'
import type { Unreliable } from '../stats/reliability.js'

/**
 * The one decision every route makes (docs/statistics.md, "One decision core"): an interval (made by the law the
 * rules fixed, widened by the shared bounds, src/stats/interval.ts) against the threshold a unit must clear, in the
 * metric's better direction. Non-inferiority (threshold −margin), superiority by interval or by test (+margin, and
 * the test's p), levels (the level), budgets (−budget) and judge drift (−max_drop) all read it; each only names
 * the three outcomes in its own words.
 */

/** Where an interval lies against a threshold. */
export type Standing =
  /** Its worse end clears the threshold (and the reliability rule lets it support a pass). */
  | 'clears'
  /** Its better end is short of the threshold: shown worse, whatever else holds. */
  | 'short'
  /** It contains the threshold. */
  | 'straddles'
  /**
   * It would clear, but cannot support a pass: the reliability rule refuses the interval (src/stats/reliability.ts
   * says why), or only the range's bound stands in the way (the data alone clear the threshold, but n units cannot
   * rule out that unseen ones change more: too few for the margin).
   */
  | 'unsupported'

/** The interval and threshold of one unit, in metric units. */
export interface Against {
  ci: readonly [number, number]
  threshold: number
  better: Direction
  /** Superiority: the worse end must exceed the threshold; every other kind: reach it. */
  strict: boolean
  /** Why the interval cannot support a pass, or null. */
  unreliable: Unreliable | null
  /** The law's own interval before the range's bound (src/stats/interval.ts), when the range widened it. */
  own?: readonly [number, number]
}

/** Where the interval stands: 'short' before anything (a shown loss is never left undecided by the rule). */
export function standing(a: Against): Standing {
  const sign = a.better === 'higher' ? 1 : -1
  const [worse, better] = inBetterDirection(a.ci, a.better)
  const bar = sign * a.threshold
  if (better < bar) return 'short'
  const clearsAt = (end: number): boolean => (a.strict ? end > bar : end >= bar)
  if (!clearsAt(worse)) {
    // The data alone clear it; only what unseen units could change stands in the way: too few for the margin.
    const own = a.own === undefined ? undefined : sign > 0 ? a.own[0] : -a.own[1]
    return own !== undefined && clearsAt(own) ? 'unsupported' : 'straddles'
  }
  return a.unreliable === null ? 'clears' : 'unsupported'
}

/** The interval's ends in the better direction: [worse, better] (what a unit must clear, and what shows it short). */
export function inBetterDirection(ci: readonly [number, number], better: Direction): [number, number] {
  return better === 'higher' ? [ci[0], ci[1]] : [-ci[1], -ci[0]]
}
