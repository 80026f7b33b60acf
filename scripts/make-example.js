// Writes the example evaluation under examples/: 400 queries (90% established users, 10% new users, four
// categories, queries grouped by user), baseline and candidate per-query rows. The candidate is a "better"
// embedding model that lifts the average while new users regress: the pattern the gate exists to catch.
// Deterministic (seeded), so the committed files are exactly what this script writes:
//   node scripts/make-example.js
import { writeFileSync } from 'node:fs'
import seedrandom from 'seedrandom'

const rng = seedrandom('retrieval-gate example v1')
const categories = ['billing', 'how-to', 'troubleshooting', 'policy']
const round = (x, d = 4) => Number(x.toFixed(d))
const clamp01 = (x) => Math.min(1, Math.max(0, x))

const baseline = []
const candidate = []
for (let q = 0; q < 400; q++) {
  const segment = q % 10 === 9 ? 'new' : 'established'
  const category = categories[Math.floor(rng() * categories.length)]
  const user = `u${String(Math.floor(q / 4)).padStart(3, '0')}`
  const difficulty = rng()
  // Baseline quality: established users are easier (their vocabulary is in the corpus).
  const baseRecall = clamp01((segment === 'new' ? 0.55 : 0.72) - 0.3 * difficulty + 0.25 * (rng() - 0.5))
  const shift = segment === 'new' ? -0.09 + 0.12 * (rng() - 0.5) : 0.05 + 0.12 * (rng() - 0.5)
  const candRecall = clamp01(baseRecall + shift)
  const toHit = (r) => (rng() < 0.15 + 0.85 * r ? 1 : 0)
  const baseHit = toHit(baseRecall)
  const candHit =
    rng() < 0.85
      ? candRecall >= baseRecall
        ? Math.max(baseHit, toHit(candRecall))
        : Math.min(baseHit, toHit(candRecall))
      : toHit(candRecall)
  const baseMrr = baseHit ? clamp01(0.35 + 0.6 * rng()) : 0
  const candMrr = candHit ? clamp01(baseMrr > 0 ? baseMrr + 0.1 * (rng() - 0.4) : 0.35 + 0.6 * rng()) : 0
  const baseLatency = 40 + 25 * rng()
  const candLatency = baseLatency * (1.05 + 0.1 * rng())
  const id = `q${String(q + 1).padStart(4, '0')}`
  const attrs = { segment, category, user_id: user }
  baseline.push({
    query_id: id,
    'recall@10': round(baseRecall),
    'hit@10': baseHit,
    'mrr@10': round(baseMrr),
    latency_ms: round(baseLatency, 1),
    ...attrs
  })
  candidate.push({
    query_id: id,
    'recall@10': round(candRecall),
    'hit@10': candHit,
    'mrr@10': round(candMrr),
    latency_ms: round(candLatency, 1),
    ...attrs
  })
}
const jsonl = (rows) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
writeFileSync('examples/baseline.jsonl', jsonl(baseline))
// The candidate file lists the queries in another order: pairing is by query_id, never by position.
writeFileSync('examples/candidate.jsonl', jsonl([...candidate].reverse()))
console.log('wrote examples/baseline.jsonl and examples/candidate.jsonl (400 queries)')
