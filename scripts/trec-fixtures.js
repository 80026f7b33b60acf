#!/usr/bin/env node
/**
 * Generates the trec_eval conformance fixtures in __tests__/fixtures/trec/ (deterministic: seeded), and,
 * when trec_eval is available (env TREC_EVAL, default /work/tools/trec_eval/trec_eval), its expected
 * outputs. The tests only read the committed files; they never need trec_eval.
 *
 *   node scripts/trec-fixtures.js            # write inputs and (if trec_eval exists) expected outputs
 *
 * Cases covered: tied scores (broken by docno descending, byte order, incl. non-ASCII ids), grades 0-3,
 * negative grades, a query with no relevant judgment, a judged query missing from the run, run-only
 * queries, rankings shorter than k, scientific-notation scores, "1" vs "01" query ids, lines within a query
 * out of rank order, a value that is an exact printf rounding tie (R@10 = 1/32 = 0.03125); and a second set
 * (qrels-norel.txt, run-norel.txt) for trec_eval's default without -c, with 15 judged queries without a relevant
 * document.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import seedrandom from 'seedrandom'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dir = join(root, '__tests__', 'fixtures', 'trec')
mkdirSync(dir, { recursive: true })
const rng = seedrandom('retrieval-gate trec fixtures v1')
const int = (n) => Math.floor(rng() * n)
const shuffle = (a) => {
  for (let i = a.length - 1; i > 0; i--) {
    const j = int(i + 1)
    ;[a[i], a[j]] = [a[j], a[i]]
  }
  return a
}

/** qrels: [qid, docno, grade]; run: [qid, docno, scoreText] */
const qrels = []
const run = []

// random queries: grades 0..3 and some negatives, scores with ties and sci notation
for (let q = 0; q < 40; q++) {
  const qid = `r${String(q).padStart(2, '0')}`
  const pool = 30 + int(40)
  for (let d = 0; d < pool; d++) {
    if (rng() < 0.6) {
      const roll = rng()
      const grade = roll < 0.45 ? 0 : roll < 0.7 ? 1 : roll < 0.85 ? 2 : roll < 0.95 ? 3 : -1
      qrels.push([qid, `D${q}-${d}`, grade])
    }
  }
  const retrieved = q % 7 === 3 ? 3 : 5 + int(120) // some rankings shorter than k
  const docs = shuffle([...Array(pool + 20).keys()]).slice(0, Math.min(retrieved, pool + 20))
  const lines = docs.map((d) => {
    const base = Math.round(rng() * 20) / 2 // many ties
    const style = int(5)
    const score = style === 0 ? base.toExponential(3) : style === 1 ? `${base * 1000}e-3` : String(base)
    return [qid, `D${q}-${d}`, score]
  })
  // mostly in rank order; every 5th query left in random order
  if (q % 5 !== 0) lines.sort((a, b) => Number(b[2]) - Number(a[2]))
  run.push(...lines)
}

// "1" and "01" are different queries
qrels.push(['1', 'a', 1], ['1', 'b', 0], ['01', 'a', 0], ['01', 'b', 2])
run.push(['1', 'a', '2'], ['1', 'b', '1'], ['01', 'a', '2'], ['01', 'b', '1'])

// no relevant judgment (grade 0 and negative only), but retrieved
qrels.push(['norel', 'n1', 0], ['norel', 'n2', -1], ['norel', 'n3', 0])
run.push(['norel', 'n1', '3'], ['norel', 'n2', '2'], ['norel', 'x', '1'])

// judged, relevant, absent from the run
qrels.push(['absent', 'z1', 2], ['absent', 'z2', 0])

// run-only query
run.push(['runonly', 'z1', '1'], ['runonly', 'z2', '0.5'])

// 32 relevant, one retrieved at rank 3: R@10 = 1/32 = 0.03125 (printf prints 0.0312)
for (let d = 0; d < 32; d++) qrels.push(['tie32', `t${String(d).padStart(2, '0')}`, 1])
run.push(['tie32', 'u1', '9'], ['tie32', 'u2', '8'], ['tie32', 't05', '7'], ['tie32', 'u3', '6'])

// ties among non-ASCII doc ids: byte order, not UTF-16 order (U+1D538 vs U+FF21)
qrels.push(['utf', 'd\u00e9', 1], ['utf', 'd\u{1d538}', 2], ['utf', 'd\uff21', 0], ['utf', 'dz', 3], ['utf', 'da', 1])
run.push(
  ['utf', 'da', '1.0'],
  ['utf', 'dz', '1.0'],
  ['utf', 'd\u00e9', '1'],
  ['utf', 'd\uff21', '1.00'],
  ['utf', 'd\u{1d538}', '1e0'],
  ['utf', 'dq', '0.5']
)

// negative grades in the ranking, ideal DCG from judgments the run never retrieved
qrels.push(['neg', 'm1', -1], ['neg', 'm2', 3], ['neg', 'm3', 0], ['neg', 'm4', 2], ['neg', 'm5', 1])
run.push(['neg', 'm1', '5'], ['neg', 'm3', '4'], ['neg', 'm5', '3'], ['neg', 'mx', '2'])

const qrelsText = shuffle(qrels.slice())
  .map(([q, d, g]) => `${q} 0 ${d} ${g}\n`)
  .join('')
const trecLine = ([q, d, s], i) => `${q} Q0 ${d} ${i + 1} ${s} fixture\n`
const runText = run.map(trecLine).join('')
const ungroupedText = shuffle(run.slice()).map(trecLine).join('')

// JSON Lines: per-query records for half of the queries, per-document lines for the rest
const byQuery = new Map()
for (const [q, d, s] of run) {
  if (!byQuery.has(q)) byQuery.set(q, [])
  byQuery.get(q).push([d, s])
}
let jsonl = ''
let k = 0
for (const [q, docs] of byQuery) {
  if (k++ % 2 === 0) {
    jsonl +=
      JSON.stringify({
        query_id: q,
        results: docs.map(([d, s]) => ({ doc_id: d, score: Number(s) })),
        latency_ms: 10 + k,
        segment: k % 3 ? 'head' : 'tail'
      }) + '\n'
  } else {
    for (const [d, s] of docs) jsonl += `{"query_id":${JSON.stringify(q)},"doc_id":${JSON.stringify(d)},"score":${s}}\n`
  }
}

writeFileSync(join(dir, 'qrels.txt'), qrelsText)
writeFileSync(join(dir, 'run.txt'), runText)
writeFileSync(join(dir, 'run-ungrouped.txt'), ungroupedText)
writeFileSync(join(dir, 'run.jsonl'), jsonl)

// A second set for trec_eval's default (without -c): every judged query is in the run (trec_eval 10.0 stops on a
// judged query the run lacks unless -c is given), 15 of the 45 judged queries have no relevant judgment (grades 0
// and -1 only, retrieved or not), and 3 run-only queries are ignored. Its own stream, so the set above is unchanged.
const rngNorel = seedrandom('retrieval-gate trec fixtures norel v1')
const intNorel = (n) => Math.floor(rngNorel() * n)
const norelQrels = []
const norelRun = []
for (let q = 0; q < 48; q++) {
  const qid = `q${String(q).padStart(2, '0')}`
  const pool = 10 + intNorel(30)
  const judged = q < 45
  const withoutRelevant = judged && q % 3 === 1
  if (judged) {
    for (let d = 0; d < pool; d++) {
      if (rngNorel() < 0.7) {
        const roll = rngNorel()
        const grade = withoutRelevant ? (roll < 0.85 ? 0 : -1) : roll < 0.5 ? 0 : roll < 0.75 ? 1 : roll < 0.9 ? 2 : 3
        norelQrels.push([qid, `N${q}-${d}`, grade])
      }
    }
  }
  const retrieved = 1 + intNorel(pool + 5)
  for (let r = 0; r < retrieved; r++)
    norelRun.push([qid, `N${q}-${intNorel(pool + 5)}-${r % 2 === 0 ? '' : 'x'}`.replace(/-$/, ''), String(100 - r)])
}
const norelQrelsText = norelQrels.map(([q, d, g]) => `${q} 0 ${d} ${g}\n`).join('')
// A document may be drawn twice for one query: keep its first (highest-scored) line, as a run lists a document once.
const seenNorel = new Set()
const norelRunText = norelRun
  .filter(([q, d]) => !seenNorel.has(`${q} ${d}`) && seenNorel.add(`${q} ${d}`))
  .map(trecLine)
  .join('')
writeFileSync(join(dir, 'qrels-norel.txt'), norelQrelsText)
writeFileSync(join(dir, 'run-norel.txt'), norelRunText)

const MEASURES = [
  '-m',
  'map',
  '-m',
  'P.5,10',
  '-m',
  'recall.10,100',
  '-m',
  'ndcg',
  '-m',
  'ndcg_cut.10',
  '-m',
  'recip_rank',
  '-m',
  'Rprec',
  '-m',
  'success.1,5,10',
  '-m',
  'bpref',
  '-m',
  'num_ret',
  '-m',
  'num_rel'
]
const VARIANTS = [
  { out: 'expected.txt', flags: ['-c'] },
  { out: 'expected-M5.txt', flags: ['-c', '-M', '5'] },
  { out: 'expected-l2.txt', flags: ['-c', '-l', '2'] },
  // trec_eval's default (no -c) and -c on the set where the run has every judged query.
  { out: 'expected-norel.txt', flags: [], qrels: 'qrels-norel.txt', run: 'run-norel.txt' },
  { out: 'expected-norel-c.txt', flags: ['-c'], qrels: 'qrels-norel.txt', run: 'run-norel.txt' }
]
const trecEval = process.env.TREC_EVAL ?? '/work/tools/trec_eval/trec_eval'
if (!existsSync(trecEval)) {
  console.log(`trec_eval not found at ${trecEval}: inputs written, expected outputs left as they are`)
  process.exit(0)
}
const probe = spawnSync(trecEval, ['-v'], { encoding: 'utf8' })
const version = `${probe.stdout}${probe.stderr}`.trim()
let readme = `# trec_eval conformance fixtures\n\nGenerated by \`node scripts/trec-fixtures.js\` (deterministic, seeded). Expected outputs produced by ${version}\n(github usnistgov/trec_eval, built with make), with these exact commands, run in this folder:\n\n`
for (const v of VARIANTS) {
  const args = [
    ...v.flags.slice(0, 1),
    '-q',
    ...v.flags.slice(1),
    ...MEASURES,
    v.qrels ?? 'qrels.txt',
    v.run ?? 'run.txt'
  ]
  const text = execFileSync(trecEval, args, { cwd: dir, encoding: 'utf8' })
  writeFileSync(join(dir, v.out), text)
  readme += `- \`${v.out}\`: \`trec_eval ${args.join(' ')}\`\n`
}
// Without -c, trec_eval 10.0 stops on the judged query "absent" that run.txt lacks: recorded, as the refusal to match.
const stops = spawnSync(trecEval, ['-q', '-m', 'map', 'qrels.txt', 'run.txt'], { cwd: dir, encoding: 'utf8' })
readme += `- \`trec_eval -q -m map qrels.txt run.txt\` (no -c) prints nothing on stdout, exits ${stops.status} and says on stderr: \`${stops.stderr.trim()}\`\n`
readme += `\nrun-ungrouped.txt (the same lines shuffled) and run.jsonl (the same run as JSON Lines) must give the same values.\n`
readme += `qrels-norel.txt / run-norel.txt: every judged query is in the run, 15 of the 45 judged queries have no relevant judgment, 3 run queries are not judged.\n`
writeFileSync(join(dir, 'README.md'), readme)
console.log(`fixtures and expected outputs written to ${dir}`)
