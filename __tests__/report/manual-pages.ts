/**
 * An experiment shaped like the one issue 34 was found on (written for these tests, not one of the project's
 * examples): 340 questions about a few thousand manual pages, each with a topic and a reader segment in a queries
 * file, graded judgments (0-3), and two TREC runs of 100 documents whose ids read like manual page anchors
 * (`man8/systemd-networkd.8.html#q0042-17`). Three gated metrics, checks whose limits sit close together on an
 * axis that the per-topic intervals make wide, and eight topics, the smallest of 30 queries (the scatter colours
 * seven, so one value is left over). Deterministic (seedrandom).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import seedrandom from 'seedrandom'
import type { GateResult } from '../../src/decide/result.js'
import { runGate } from '../../src/gate.js'
import { readRules } from '../../src/load.js'
import { loadFiles, tempDir } from '../helpers.js'

/** Topics with their query counts (the last, 30 queries, is the eighth value: no colour of its own). */
const TOPICS: Array<[string, number, string[]]> = [
  ['networking', 70, ['man8/systemd-networkd.8.html', 'man8/ip-route.8.html', 'man5/resolv.conf.5.html']],
  ['storage', 55, ['man8/lvcreate.8.html', 'man8/mount.8.html', 'man5/fstab.5.html']],
  ['boot', 45, ['man7/bootup.7.html', 'man1/systemd-analyze.1.html', 'man5/grub.cfg.5.html']],
  ['packages', 40, ['man8/apt-get.8.html', 'man1/dpkg-query.1.html', 'man5/sources.list.5.html']],
  ['shell', 35, ['man1/bash.1.html', 'man1/find.1.html', 'man1/xargs.1.html']],
  ['users', 33, ['man8/useradd.8.html', 'man5/sudoers.5.html', 'man1/passwd.1.html']],
  ['security', 32, ['man8/nft.8.html', 'man5/sshd_config.5.html', 'man8/apparmor_parser.8.html']],
  ['printing', 30, ['man8/cupsd.8.html', 'man1/lp.1.html', 'man5/printers.conf.5.html']]
]

const QUESTIONS = [
  'how do I make it start again after it crashes',
  'why does the setting in this file have no effect after a reboot',
  'which option limits this to one interface or device',
  'where is the log of what happened the last time it failed',
  'how can a normal user do this without becoming root'
]

export const MANUAL_PAGES_RULES = `version: 1
judgments: { qrels: QRELS }
queries: { file: QUERIES }
metrics:
  nDCG@10: { better: higher }
  R@100: { better: higher }
  P@5: { better: higher }
slices: [topic, segment]
statistics: { seed: 7, resamples: 2000 }
checks:
  - name: nDCG@10 does not drop
    metric: nDCG@10
    non_inferior: { margin: 0.01 }
  - name: beginners are protected
    metric: nDCG@10
    where: { segment: beginner }
    non_inferior: { margin: 0.02 }
  - name: every topic holds
    metric: nDCG@10
    per_slice: topic
    non_inferior: { margin: 0.03 }
  - name: recall does not drop
    metric: R@100
    non_inferior: { margin: 0.015 }
  - name: precision holds
    metric: P@5
    non_inferior: { margin: 0.02 }
`

/** The experiment's files in a new folder: rules.yml, qrels.txt, queries.jsonl, baseline.run, candidate.run. */
export function manualPagesFiles(dir = tempDir('rg-manual-')): Record<string, string> {
  mkdirSync(dir, { recursive: true })
  const rng = seedrandom('manual pages, issue 34')
  const qrels: string[] = []
  const queries: string[] = []
  const runs: Record<'baseline' | 'candidate', string[]> = { baseline: [], candidate: [] }
  let q = 0
  for (const [topic, count, pages] of TOPICS) {
    for (let k = 0; k < count; k++, q++) {
      const qid = `man-q${String(q + 1).padStart(4, '0')}`
      const segment = q % 4 === 3 ? 'beginner' : 'admin'
      const page = pages[k % pages.length]
      const text = `${QUESTIONS[q % QUESTIONS.length]} (${page.split('/')[1].replace(/\.html$/, '')})?`
      queries.push(JSON.stringify({ query_id: qid, text, topic, segment }))
      const docs = Array.from(
        { length: 160 },
        (_, d) => `${pages[d % pages.length]}#q${String(q + 1).padStart(4, '0')}-${d}`
      )
      const relevant = 2 + Math.floor(rng() * 5)
      for (let d = 0; d < relevant; d++) qrels.push(`${qid} 0 ${docs[d]} ${1 + Math.floor(rng() * 3)}`)
      for (let d = relevant; d < relevant + 8; d++) qrels.push(`${qid} 0 ${docs[d]} 0`)
      const quality = 1.1 + rng() * 0.6
      // The candidate gains overall, loses for beginners and on printing: regressions with both rankings to show.
      const shift = topic === 'printing' ? -0.5 : segment === 'beginner' ? -0.25 : 0.45
      for (const [side, boost] of [
        ['baseline', 0],
        ['candidate', shift]
      ] as const) {
        const scored = docs.map((doc, d) => ({ doc, score: (d < relevant ? quality + boost : 0) + rng() * 2 }))
        scored.sort((a, b) => b.score - a.score || (a.doc < b.doc ? -1 : 1))
        scored
          .slice(0, 100)
          .forEach((r, rank) => runs[side].push(`${qid} Q0 ${r.doc} ${rank + 1} ${r.score.toFixed(5)} ${side}`))
      }
    }
  }
  const files: Record<string, string> = {}
  const write = (name: string, text: string): void => {
    files[name] = path.join(dir, name)
    writeFileSync(files[name], text)
  }
  write('qrels.txt', qrels.join('\n') + '\n')
  write('queries.jsonl', queries.join('\n') + '\n')
  write('baseline.run', runs.baseline.join('\n') + '\n')
  write('candidate.run', runs.candidate.join('\n') + '\n')
  write('rules.yml', MANUAL_PAGES_RULES.replace('QRELS', files['qrels.txt']).replace('QUERIES', files['queries.jsonl']))
  return files
}

/** The gate's result on {@link manualPagesFiles}, read as the CLI reads them. */
export async function manualPagesResult(files = manualPagesFiles()): Promise<GateResult> {
  const rules = await readRules(files['rules.yml'])
  return runGate(await loadFiles(rules, { baseline: files['baseline.run'], candidate: files['candidate.run'] }))
}
