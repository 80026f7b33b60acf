/**
 * Which kind of ranking metric a user-named metric is, recognised from its name (case-insensitively), so
 * the report can say which layer of a retrieval system a pattern points to. Names are free text in the
 * rules; only the last segment after `.` or `/` is looked at ("eval.recall@10" is recall).
 */
export type MetricFamily = 'hit' | 'rr' | 'recall' | 'precision' | 'ndcg'

// A cut-off written as @10, _10, -10, _at_10 or nothing.
const K = String.raw`(?:(?:@|_at_|_|-)?(\d+))?`
const FAMILIES: Array<[MetricFamily, RegExp]> = [
  // hit@k, hits@k, success@k, success_10 (trec_eval), s@k
  ['hit', new RegExp(String.raw`^(?:hits?|success|hit_rate|hitrate)${K}$|^s@(\d+)$`, 'i')],
  // mrr, mrr@10, rr, recip_rank (trec_eval), reciprocal_rank
  ['rr', new RegExp(String.raw`^(?:mrr|rr|recip_rank|reciprocal_rank|mean_reciprocal_rank)${K}$`, 'i')],
  // recall, recall@10, recall_10 (trec_eval), r@10
  ['recall', new RegExp(String.raw`^recall${K}$|^r@(\d+)$`, 'i')],
  // precision, precision@10, P_10 (trec_eval), p@10
  ['precision', new RegExp(String.raw`^precision${K}$|^p(?:@|_)(\d+)$`, 'i')],
  // ndcg, ndcg@10, ndcg_cut_10 (trec_eval)
  ['ndcg', new RegExp(String.raw`^ndcg(?:_cut)?${K}$`, 'i')]
]

/** The family of a metric name, and its cut-off k when the name has one; null when not recognised. */
export function metricFamily(name: string): { family: MetricFamily; k: number | null } | null {
  const last = name.split(/[./]/).pop() ?? name
  for (const [family, re] of FAMILIES) {
    const m = re.exec(last.trim())
    if (m) {
      const k = m.slice(1).find((g) => g !== undefined)
      return { family, k: k === undefined ? null : Number(k) }
    }
  }
  return null
}
