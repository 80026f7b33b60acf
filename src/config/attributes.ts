import type { Rules } from './types.js'

/**
 * Attribute names the rules use (slices, where, per_slice, statistics.cluster, statistics.weights.by), each
 * with the rules key that needs it (for errors). The pairing stage reads these columns; the rows readers
 * keep only these values, so memory grows with what the rules use and not with the other fields of a file
 * (a long unused string per row cost 3.6 GB for a 2 GB file when every field was kept).
 */
export function neededAttributes(rules: Rules): Map<string, string> {
  const names = new Map<string, string>()
  rules.slices.forEach((s, i) => names.has(s) || names.set(s, `slices[${i}]`))
  for (const c of rules.checks) {
    for (const [k] of c.where) if (!names.has(k)) names.set(k, `checks[${c.index}].where.${k}`)
    if (c.perSlice !== undefined && !names.has(c.perSlice)) names.set(c.perSlice, `checks[${c.index}].per_slice`)
  }
  const { cluster, weights } = rules.statistics
  if (cluster !== undefined && !names.has(cluster)) names.set(cluster, 'statistics.cluster')
  if (weights !== undefined && !names.has(weights.by)) names.set(weights.by, 'statistics.weights.by')
  const lengthSlice = rules.judge?.lengthBias?.perSlice
  if (lengthSlice !== undefined && !names.has(lengthSlice)) names.set(lengthSlice, 'judge.length_bias.per_slice')
  // Grading both splits: the holdout accounting tells holdout queries apart by the evaluation set's `split`.
  if (rules.dataset?.split === 'all' && !names.has('split')) names.set('split', 'dataset.split')
  return names
}
