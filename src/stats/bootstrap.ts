import type { Design } from './design.js'
import type { BootstrapJob } from './kernels.js'
import { BLOCK, blockStates } from './rng.js'
import { SYNC_RUNNER, type KernelPlan, type KernelRunner } from './threads.js'

/**
 * The bootstrap distribution of every column's estimate under one shared resampling plan: per resample,
 * units are drawn with replacement within each stratum (queries, or whole clusters) and every column is
 * accumulated in the same pass over a row-major typed array, one local accumulator per column. Returns per
 * column the resampled estimates sorted ascending (any quantile, hence any confidence level, is read from them).
 *
 * Speed: the generator (xoshiro128**) is inlined, indices come from one uint32 by multiply-shift
 * (floor(r·size / 2^32); its bias is below size / 2^32, about 2e-6 for 7,000 queries), and nothing is
 * allocated per resample (src/stats/kernels.ts). Resamples are made in blocks of {@link BLOCK}, each with its
 * own stream derived from (seed, stream, block), so the bytes do not depend on scheduling: the `runner`
 * (src/stats/threads.ts) may spread the blocks over threads and the result is the same.
 */
export function bootstrapDistribution(design: Design, resamples: number, seed: string, stream: string, runner: KernelRunner = SYNC_RUNNER): Float64Array[] {
  const plan = bootstrapPlan(design, resamples, seed, stream)
  runner.run(plan.jobs)
  return plan.finish()
}

/**
 * The work of {@link bootstrapDistribution} as kernel jobs (none for an empty design) and the step that
 * reads the result once they have run: lets a caller run several plans' jobs as one batch of units.
 */
export function bootstrapPlan(design: Design, resamples: number, seed: string, stream: string): KernelPlan<Float64Array[]> {
  const { k } = design
  const out = new Float64Array(k * resamples)
  const jobs: BootstrapJob[] = []
  if (design.units === 0) out.fill(Number.NaN)
  else {
    // Columns in groups of at most 8, each by the kernel of its exact width; every group replays the same block streams.
    const vs: Float64Array[] = []
    for (let g = 0; g < k; g += 8) vs.push(columnsOf(design, g, Math.min(8, k - g)))
    const blocks = Math.ceil(resamples / BLOCK)
    jobs.push({
      kind: 'bootstrap',
      units: vs.length * blocks,
      work: resamples * design.units * k,
      blocks,
      block: BLOCK,
      resamples,
      k,
      vs,
      counts: design.counts,
      starts: Int32Array.from(design.strata, (s) => s.start),
      sizes: Int32Array.from(design.strata, (s) => s.size),
      weights: Float64Array.from(design.strata, (s) => s.weight),
      states: blockStates(seed, stream, blocks),
      out
    })
  }
  return {
    jobs,
    finish() {
      const sorted: Float64Array[] = []
      for (let c = 0; c < k; c++) sorted.push(out.subarray(c * resamples, (c + 1) * resamples).sort())
      return sorted
    }
  }
}

/** Columns [g, g + width) of the design's row-major values as their own row-major array (one cache line per drawn unit). */
function columnsOf(design: Design, g: number, width: number): Float64Array {
  const { k, units, values } = design
  if (g === 0 && width === k) return values
  const out = new Float64Array(units * width)
  for (let u = 0; u < units; u++) for (let c = 0; c < width; c++) out[u * width + c] = values[u * k + g + c]
  return out
}
