// Writes the run-based example under examples/runs/: TREC qrels (graded 0-3) for 200 queries, and a baseline
// and a candidate run as per-query JSON Lines (results + latency_ms + segment), so the gate computes nDCG@10,
// R@100 and RR itself, exactly as trec_eval would. The same runs are also written under examples/trec/ as TREC
// runs (no attributes at all, as trec_eval's tools write them) with a queries file that gives each query its
// text and its slices, the way most teams keep their topics. Deterministic: node scripts/make-run-example.js
import { mkdirSync, writeFileSync } from 'node:fs'
import seedrandom from 'seedrandom'

const rng = seedrandom('retrieval-gate run example v1')
const qrels = []
const base = []
const cand = []
for (let q = 0; q < 200; q++) {
  const qid = `q${String(q + 1).padStart(3, '0')}`
  const segment = q % 5 === 4 ? 'new' : 'established'
  const relevant = 2 + Math.floor(rng() * 6)
  const docs = Array.from({ length: 300 }, (_, i) => `${qid}-d${String(i).padStart(3, '0')}`)
  for (let i = 0; i < relevant; i++) qrels.push(`${qid} 0 ${docs[i]} ${1 + Math.floor(rng() * 3)}`)
  for (let i = relevant; i < relevant + 10; i++) qrels.push(`${qid} 0 ${docs[i]} 0`)
  const rank = (quality) => {
    const scored = docs.map((d, i) => ({ doc_id: d, score: (i < relevant ? quality : 0) + rng() * 2 }))
    scored.sort((a, b) => b.score - a.score || (a.doc_id < b.doc_id ? 1 : -1))
    return scored.slice(0, 100).map((r) => ({ doc_id: r.doc_id, score: Number(r.score.toFixed(5)) }))
  }
  const baseQuality = 1.2 + rng() * 0.6
  const candQuality = segment === 'new' ? baseQuality - 0.1 : baseQuality + 0.5
  const latency = 30 + rng() * 20
  base.push({ query_id: qid, segment, latency_ms: Number(latency.toFixed(1)), results: rank(baseQuality) })
  cand.push({ query_id: qid, segment, latency_ms: Number((latency * 1.08).toFixed(1)), results: rank(candQuality) })
}
writeFileSync('examples/runs/qrels.txt', qrels.join('\n') + '\n')
writeFileSync('examples/runs/baseline.jsonl', base.map((r) => JSON.stringify(r)).join('\n') + '\n')
writeFileSync('examples/runs/candidate.jsonl', cand.map((r) => JSON.stringify(r)).join('\n') + '\n')
console.log('wrote examples/runs/{qrels.txt,baseline.jsonl,candidate.jsonl} (200 queries)')

// examples/trec: `qid Q0 docno rank score tag` lines carry no segment; the queries file does.
const topics = ['billing', 'login', 'export', 'search']
const trecRun = (rows, tag) =>
  rows.flatMap((r) => r.results.map((d, k) => `${r.query_id} Q0 ${d.doc_id} ${k + 1} ${d.score} ${tag}`)).join('\n') +
  '\n'
const queries = base.map((r, i) => ({
  query_id: r.query_id,
  text: `how do I fix ${topics[i % 4]} problem ${i + 1}?`,
  segment: r.segment,
  topic: topics[i % 4]
}))
mkdirSync('examples/trec', { recursive: true })
writeFileSync('examples/trec/baseline.run', trecRun(base, 'bm25'))
writeFileSync('examples/trec/candidate.run', trecRun(cand, 'hybrid'))
writeFileSync('examples/trec/queries.jsonl', queries.map((q) => JSON.stringify(q)).join('\n') + '\n')
console.log(
  'wrote examples/trec/{baseline.run,candidate.run,queries.jsonl} (the same runs as TREC runs, attributes in the queries file)'
)
