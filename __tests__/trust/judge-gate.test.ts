/**
 * The judge guards in the gate: a judge that no longer agrees with the human anchors fails the gate as "the
 * ruler changed", decided by a trust rule and naming the slice; undefined or thin evidence is inconclusive,
 * never a pass; the anchors are read strictly and are an exam file (read at the base commit in a PR).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { readAnchors } from '../../src/capabilities/judge/anchors.js'
import { loadRules } from '../../src/config/rules.js'
import { readFetched } from '../../src/readers/fetched.js'
import { cli, examInputs, hasStackTrace, jsonl, refusal, writeFiles } from '../helpers.js'

const HEAD = `version: 1
metrics:
  score: { better: higher, range: [0, 1] }
checks:
  - name: no worse
    metric: score
    non_inferior: { margin: 0.5 }
statistics: { resamples: 1000, seed: 3, interval: percentile }
queries: { min_per_slice: 5 }
`
/**
 * 12 queries, the candidate a little better: the statistical check passes (by the percentile bootstrap: the default
 * interval needs 40 queries for a metric that is not binary), so any failure is the judge's. The anchors are 12 per
 * task, so the rules below set min_items: 10 (the default, 40, is what a kappa interval needs to hold its level).
 */
const rows = (side: 'b' | 'c', length?: (i: number, side: 'b' | 'c') => number): string =>
  jsonl(
    Array.from({ length: 12 }, (_, i) => ({
      query_id: `q${i}`,
      score: side === 'b' ? 0.5 : 0.5 + (i % 3) * 0.1,
      task: i % 2 ? 'qa' : 'chat',
      ...(length ? { answer_length: length(i, side) } : {})
    }))
  )

/**
 * 12 items per task; in `chat` the candidate's judge agrees with the human on every other item only. The anchor
 * file (the exam: items, human labels, the baseline judge's labels) and the candidate judge's labels (its answer).
 */
function anchors(): { 'anchors.jsonl': string; 'labels.jsonl': string } {
  const exam: Array<Record<string, unknown>> = []
  const labels: Array<Record<string, unknown>> = []
  for (const task of ['chat', 'qa']) {
    for (let i = 0; i < 12; i++) {
      const human = i % 3
      const wrong = task === 'chat' && i % 2 === 1
      exam.push({ id: `${task}-${i}`, human, judge: human, task })
      labels.push({ id: `${task}-${i}`, judge: wrong ? (human + 1) % 3 : human })
    }
  }
  return { 'anchors.jsonl': jsonl(exam), 'labels.jsonl': jsonl(labels) }
}

/** Runs the gate on the rows above with `judge` rules; ANCHORS in them is the anchor file's path. */
async function gate(rulesTail: string, files: Record<string, string>, length?: (i: number, side: 'b' | 'c') => number) {
  const f = writeFiles({ 'b.jsonl': rows('b', length), 'c.jsonl': rows('c', length), ...files })
  const dir = f['b.jsonl'].slice(0, -'b.jsonl'.length)
  const rules = writeFiles({
    'rules.yml': HEAD + rulesTail.split('ANCHORS').join(f['anchors.jsonl'] ?? f['anchors.csv'] ?? '')
  })['rules.yml']
  const labels = f['labels.jsonl'] ?? f['labels.csv']
  const out = await cli([
    'gate',
    '--rules',
    rules,
    '--baseline',
    f['b.jsonl'],
    '--candidate',
    f['c.jsonl'],
    '--json',
    `${dir}out.json`,
    '--markdown',
    `${dir}out.md`,
    ...(labels ? ['--candidate-judge-labels', labels] : [])
  ])
  const json = out.code === 2 ? null : (JSON.parse(readFileSync(`${dir}out.json`, 'utf8')) as Record<string, any>)
  const md = out.code === 2 ? '' : readFileSync(`${dir}out.md`, 'utf8')
  return { ...out, json, md }
}

describe('judge.min_kappa', () => {
  it('a task whose candidate judge falls below the floor fails the gate as "the ruler changed", naming the task', async () => {
    const r = await gate('judge: { anchors: ANCHORS, per_slice: task, min_kappa: 0.6, min_items: 10 }\n', anchors())
    expect(r.code).toBe(1)
    expect(r.json?.decided_by).toBe('judge.min_kappa')
    const guard = r.json?.trust.guards.find((g: { rule: string }) => g.rule === 'judge.min_kappa')
    expect(guard.status).toBe('fail')
    expect(guard.reason).toMatch(/^the ruler changed: .*task=chat, the candidate's judge: kappa /)
    expect(guard.reason).not.toMatch(/task=qa/)
    expect(r.md).toContain('decided by trust rule “judge.min\\_kappa”')
    // chat, candidate's judge: human x judge table [[2,2,0],[0,2,2],[2,0,2]] (hand, from anchors() above).
    // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import cohens_kappa; print(cohens_kappa([[2,2,0],[0,2,2],[2,0,2]]).kappa)" -> 0.25
    expect(r.json?.judge.agreement[1]).toMatchObject({
      slice: { task: 'chat' },
      items: 12,
      candidate: { raw_agreement: 0.5 }
    })
    expect(r.json?.judge.agreement[1].candidate.kappa).toBeCloseTo(0.25, 12)
    // Every unit is in the JSON: the baseline's judge agrees perfectly in both tasks, the candidate's in qa.
    const units = r.json?.judge.guards[0].units.map((u: Record<string, unknown>) => [u.slice, u.side, u.status])
    expect(units).toEqual([
      [{ task: 'chat' }, 'baseline', 'pass'],
      [{ task: 'chat' }, 'candidate', 'fail'],
      [{ task: 'qa' }, 'baseline', 'pass'],
      [{ task: 'qa' }, 'candidate', 'pass']
    ])
  })

  it('the same file as CSV gives the same figures', async () => {
    const parse = (text: string): Array<Record<string, unknown>> =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    const exam = parse(anchors()['anchors.jsonl'])
    const labels = parse(anchors()['labels.jsonl'])
    const csv = 'id,human,judge,task\n' + exam.map((l) => [l.id, l.human, l.judge, l.task].join(',')).join('\n') + '\n'
    const labelsCsv = 'id,judge\n' + labels.map((l) => [l.id, l.judge].join(',')).join('\n') + '\n'
    const a = await gate('judge: { anchors: ANCHORS, per_slice: task, min_kappa: 0.6, min_items: 10 }\n', anchors())
    const b = await gate('judge: { anchors: ANCHORS, per_slice: task, min_kappa: 0.6, min_items: 10 }\n', {
      'anchors.csv': csv,
      'labels.csv': labelsCsv
    })
    expect(b.json?.judge.agreement).toEqual(a.json?.judge.agreement)
  })

  it('one label only: kappa undefined (null in JSON, never NaN) and the floor inconclusive; on_inconclusive decides', async () => {
    const same = jsonl(Array.from({ length: 12 }, (_, i) => ({ id: `a${i}`, human: 'good', judge: 'good' })))
    const strict = await gate('judge: { anchors: ANCHORS, min_kappa: 0.6, min_items: 10 }\n', { 'anchors.jsonl': same })
    expect(strict.code).toBe(1)
    expect(strict.json?.judge.agreement[0].baseline).toMatchObject({ kappa: null, raw_agreement: 1 })
    expect(strict.json?.trust.guards[0]).toMatchObject({
      rule: 'judge.min_kappa',
      status: 'inconclusive',
      counts_as: 'fail'
    })
    expect(strict.json?.trust.guards[0].reason).toMatch(
      /could not be decided in all anchors, the judge: kappa undefined/
    )
    const lenient = await gate('on_inconclusive: pass\njudge: { anchors: ANCHORS, min_kappa: 0.6, min_items: 10 }\n', {
      'anchors.jsonl': same
    })
    expect(lenient.code).toBe(0)
    expect(lenient.md).toContain('Kappa is undefined where every item got one same label')
  })

  it('a slice with fewer items than min_items is inconclusive, not a pass', async () => {
    const r = await gate(
      'on_inconclusive: fail\njudge: { anchors: ANCHORS, per_slice: task, min_kappa: 0.0, min_items: 13 }\n',
      anchors()
    )
    expect(r.json?.trust.guards[0]).toMatchObject({ rule: 'judge.min_kappa', status: 'inconclusive' })
    expect(r.json?.judge.guards[0].units.every((u: { undecided: string }) => u.undecided === 'too_few')).toBe(true)
  })
})

describe('judge.max_drop (drift)', () => {
  it("fails when the paired interval of the kappa change lies below -max_drop, in the task where the candidate's judge got worse", async () => {
    const r = await gate('judge: { anchors: ANCHORS, per_slice: task, max_drop: 0.05, min_items: 10 }\n', anchors())
    expect(r.code).toBe(1)
    expect(r.json?.decided_by).toBe('judge.max_drop')
    const [chat, qa] = r.json?.judge.guards[0].units as Array<Record<string, any>>
    expect(chat).toMatchObject({ slice: { task: 'chat' }, status: 'fail' })
    expect(chat.interval[1]).toBeLessThan(-0.05)
    // Hand: in qa both judges give the human label on every item, so every leave-one-out change is 0: no interval can
    // be formed (a point is no evidence), and the unit is undecided rather than passed.
    expect(qa).toMatchObject({
      slice: { task: 'qa' },
      value: 0,
      interval: null,
      status: 'inconclusive',
      undecided: 'undefined'
    })
  })

  it('refused without the candidate judge’s labels: one judge cannot drift from itself; the hint names where they go', async () => {
    const one = jsonl(Array.from({ length: 12 }, (_, i) => ({ id: `a${i}`, human: i % 2, judge: i % 2 })))
    const r = await gate('judge: { anchors: ANCHORS, max_drop: 0.05 }\n', { 'anchors.jsonl': one })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('judge.max_drop')
    // The anchor file is the exam; the candidate judge's labels are the PR's answer, never a column of the exam.
    expect(r.stderr).toContain('--candidate-judge-labels')
    expect(r.stderr).not.toContain('candidate_judge in the anchor file')
    expect(hasStackTrace(r.stderr)).toBe(false)
  })
})

describe('diagnostics', () => {
  it('repeatability: an id on several records is scored again; flip share gated by max_flip_share', async () => {
    const recs: Array<Record<string, unknown>> = []
    for (let i = 0; i < 10; i++) {
      recs.push({ id: `a${i}`, human: i % 3, judge: i % 3 })
      recs.push({ id: `a${i}`, human: i % 3, judge: i < 3 ? (i % 3) + 1 : i % 3 }) // items a0..a2 flip, by one step
    }
    const r = await gate(
      'judge: { anchors: ANCHORS, weights: linear, labels: [0, 1, 2, 3], repeatability: { max_flip_share: 0.2 } }\n',
      { 'anchors.jsonl': jsonl(recs) }
    )
    // Hand: 3 of 10 repeated items flip (0.3 > 0.2); each flip spans one step: mean range 3 / 10.
    expect(r.json?.judge.repeatability).toEqual([
      { side: 'both', repeated_items: 10, flip_share: 0.3, mean_range: 0.3 }
    ])
    expect(r.json?.judge.agreement[0]).toMatchObject({ items: 10, scorings: 20 })
    expect(r.code).toBe(1)
    expect(r.json?.decided_by).toBe('judge.repeatability')
  })

  it('position consistency: judge_swapped agrees on 9 of 10 scorings; min_consistent 0.8 passes', async () => {
    const recs = Array.from({ length: 10 }, (_, i) => ({
      id: `p${i}`,
      human: i % 2 ? 'A' : 'B',
      judge: i % 2 ? 'A' : 'B',
      judge_swapped: i === 0 ? 'A' : i % 2 ? 'A' : 'B'
    }))
    const r = await gate('judge: { anchors: ANCHORS, position: { min_consistent: 0.8 } }\n', {
      'anchors.jsonl': jsonl(recs)
    })
    expect(r.json?.judge.position).toEqual([{ side: 'both', scorings: 10, consistent: 0.9 }])
    expect(r.json?.trust.guards).toEqual([
      {
        rule: 'judge.position',
        status: 'pass',
        counts_as: 'pass',
        reason: 'at least 80.0% consistent in both orders holds in every unit (1)'
      }
    ])
    expect(r.code).toBe(0)
    expect(r.md).toContain('Position consistency, the judge: 90.0% of 10 scorings')
  })

  it('a threshold with nothing to measure (no repeats) is inconclusive, never a pass', async () => {
    const recs = Array.from({ length: 10 }, (_, i) => ({ id: `p${i}`, human: i % 2, judge: i % 2 }))
    const r = await gate('judge: { anchors: ANCHORS, repeatability: { max_flip_share: 0.2 } }\n', {
      'anchors.jsonl': jsonl(recs)
    })
    expect(r.json?.trust.guards[0]).toMatchObject({
      rule: 'judge.repeatability',
      status: 'inconclusive',
      counts_as: 'fail'
    })
  })

  it('length bias: Spearman rho of d_score vs d_length per slice, gated by max_correlation', async () => {
    // Hand: d_score = (i % 3) * 0.1 and d_length = (i % 3) * 100 rise together: rho 1 in every slice, slope 0.001.
    const tail =
      'judge: { length_bias: { score: score, length: answer_length, per_slice: task, max_correlation: 0.5 } }\n'
    const r = await gate(tail, {}, (i, side) => 200 + (side === 'c' ? (i % 3) * 100 : 0))
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    expect(r.json?.decided_by).toBe('judge.length_bias')
    const slices = r.json?.judge.length_bias.slices as Array<Record<string, any>>
    expect(slices.map((s) => [s.slice, s.n])).toEqual([
      [{}, 12],
      [{ task: 'chat' }, 6],
      [{ task: 'qa' }, 6]
    ])
    for (const s of slices) {
      expect(s.spearman).toBeCloseTo(1, 12)
      expect(s.slope).toBeCloseTo(0.001, 12)
    }
    expect(r.md).toContain('**Length bias**')
    expect(r.json?.trust.guards[0].reason).toMatch(/^the score follows answer length: /)
  })

  it('length bias without a length on the rows is refused, not skipped', async () => {
    const r = await gate('judge: { length_bias: { score: score, length: answer_length } }\n', {})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('answer_length')
    expect(hasStackTrace(r.stderr)).toBe(false)
  })
})

describe('anchors are exam files, read strictly', () => {
  const rules = (tail: string) => loadRules(HEAD + tail, 'rules.yml')
  it('the exam inputs list judge.anchors (read at the base commit in a pull request)', () => {
    expect(
      examInputs(rules('judge: { anchors: eval/anchors.jsonl, min_kappa: 0.6 }\n')).flatMap((s) =>
        s.kind === 'file' && s.path !== undefined ? [s.path] : []
      )
    ).toEqual(['eval/anchors.jsonl'])
  })

  it('a rule over anchors without an anchor file is refused with its key', async () => {
    const e = await refusal(() => rules('judge: { min_kappa: 0.6 }\n'))
    expect(e.where.key).toBe('judge.min_kappa')
  })

  it('refuses a file mixing layouts, a repeated item whose human label changes, a missing per_slice attribute', async () => {
    const f = writeFiles({
      'mixed.jsonl': jsonl([
        { id: 'a', human: 1, judge: 1 },
        { id: 'b', human: 1, baseline_judge: 1, candidate_judge: 0 }
      ]),
      'relabel.jsonl': jsonl([
        { id: 'a', human: 1, judge: 1 },
        { id: 'a', human: 2, judge: 1 }
      ]),
      'noslice.jsonl': jsonl([{ id: 'a', human: 1, judge: 1 }])
    })
    const mixed = await refusal(() => readAnchors(f['mixed.jsonl'], 'mixed.jsonl', undefined))
    expect(mixed.where).toMatchObject({ file: 'mixed.jsonl', line: 2 })
    const relabel = await refusal(() => readAnchors(f['relabel.jsonl'], 'relabel.jsonl', undefined))
    expect(relabel.where).toMatchObject({ line: 2, key: 'human' })
    expect(relabel.problem).toContain('at line 1')
    const noslice = await refusal(() => readAnchors(f['noslice.jsonl'], 'noslice.jsonl', 'task'))
    expect(noslice.where).toMatchObject({ line: 1, key: 'task' })
  })

  it("in a pull request the base commit's copy is read, and a refusal names it by path@commit, never the temporary path", async () => {
    const f = writeFiles({ 'copy.jsonl': jsonl([{ id: 'a', human: 1 }]) })
    const e = await refusal(() =>
      readFetched({ path: f['copy.jsonl'], name: 'eval/anchors.jsonl@0123456789ab' }, (p, n) =>
        readAnchors(p, n, undefined)
      )
    )
    expect(e.where).toMatchObject({ file: 'eval/anchors.jsonl@0123456789ab', line: 1 })
    expect(e.message).not.toContain(f['copy.jsonl'])
  })

  it('weighted kappa over text labels needs the scale in order (judge.labels); a label off the scale is refused', async () => {
    const words = jsonl(
      Array.from({ length: 12 }, (_, i) => ({ id: `a${i}`, human: i % 2 ? 'good' : 'bad', judge: 'good' }))
    )
    const unordered = await gate('judge: { anchors: ANCHORS, weights: linear, min_kappa: 0.5 }\n', {
      'anchors.jsonl': words
    })
    expect(unordered.code).toBe(2)
    expect(unordered.stderr).toContain('judge.weights')
    const offScale = await gate('judge: { anchors: ANCHORS, weights: linear, labels: [bad, fair], min_kappa: 0.5 }\n', {
      'anchors.jsonl': words
    })
    expect(offScale.code).toBe(2)
    expect(offScale.stderr).toContain('"good" is not on the scale judge.labels')
  })

  it('2, 2.0 and "2" are one label', async () => {
    const f = writeFiles({
      'a.jsonl': jsonl([
        { id: 'a', human: 2, judge: '2.0' },
        { id: 'b', human: '2', judge: 2.0 }
      ])
    })
    const a = await readAnchors(f['a.jsonl'], 'a.jsonl', undefined)
    expect([...a.labels]).toEqual(['2'])
  })
})
