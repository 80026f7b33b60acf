#!/usr/bin/env node
/**
 * A seeded run pair for the peers' conformance (docs/metrics.md, "The peers"): 3,000 queries, graded judgments
 * (0-3, some -1), a baseline and a candidate run of 100 documents each with tied scores, short rankings, judged queries
 * absent from a run and run-only queries: what a real pair of TREC runs holds, written deterministically (no real
 * pair of this size can be fetched here). Imported by __tests__/metrics/peers.test.ts; written to files by
 *
 *   node scripts/run-pair.js DIR     (DIR/qrels.txt, DIR/baseline.txt, DIR/candidate.txt)
 *
 * for scripts/peer-references.py.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import seedrandom from 'seedrandom'

/** The three files' texts. */
export function runPair(queries = 3000, docs = 100) {
  const rng = seedrandom('retrieval-gate run pair v1')
  const int = (n) => Math.floor(rng() * n)
  let qrels = ''
  const runs = ['', '']
  for (let q = 0; q < queries; q++) {
    const qid = `Q${q}`
    const pool = docs + 50
    const judged = q % 97 !== 13
    if (judged) {
      for (let d = 0; d < pool; d++) {
        if (rng() >= 0.25) continue
        const roll = rng()
        const grade = roll < 0.5 ? 0 : roll < 0.75 ? 1 : roll < 0.9 ? 2 : roll < 0.97 ? 3 : -1
        qrels += `${qid} 0 d${q}-${d} ${grade}\n`
      }
    }
    for (let side = 0; side < 2; side++) {
      if (q % 211 === side + 5) continue // a judged query this run lacks
      const depth = q % 53 === 7 ? 7 : docs
      const order = [...Array(pool).keys()]
      for (let i = order.length - 1; i > 0; i--) {
        const j = int(i + 1)
        ;[order[i], order[j]] = [order[j], order[i]]
      }
      let score = 20 + rng() * 5
      for (let rank = 1; rank <= depth; rank++) {
        if (rng() > 0.15) score -= Math.round((0.01 + rng() * 0.3) * 1000) / 1000 // ties: about one in seven
        runs[side] +=
          `${qid} Q0 d${q}-${order[rank - 1]} ${rank} ${score.toFixed(3)} ${side ? 'candidate' : 'baseline'}\n`
      }
    }
  }
  runs[0] += 'R1 Q0 x1 1 1.0 baseline\n' // a run-only query
  return { qrels, baseline: runs[0], candidate: runs[1] }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2]
  if (!dir) throw new Error('usage: node scripts/run-pair.js DIR')
  mkdirSync(dir, { recursive: true })
  const pair = runPair()
  for (const [name, text] of Object.entries({
    'qrels.txt': pair.qrels,
    'baseline.txt': pair.baseline,
    'candidate.txt': pair.candidate
  }))
    writeFileSync(path.join(dir, name), text)
}
