import seedrandom from 'seedrandom'

/** A uniform generator on [0, 1). */
export type Rng = () => number

/**
 * One seeded generator per named stream (e.g. a slice), derived from the rules' seed: a subset's interval
 * then depends only on the seed and that subset, not on which other checks or slices exist or the order in
 * which they are computed. Alea is seedrandom's fastest generator with good statistical quality.
 */
export function streamRng(seed: string, stream: string): Rng {
  return seedrandom.alea(`${seed}\u0000${stream}`)
}
