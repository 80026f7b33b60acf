import { describe, expect, it } from '@jest/globals'
import { cli, hasStackTrace, jsonl, writeFiles } from '../helpers.js'

// Fixtures: __tests__/fixtures/trust/dataset/. invalid.jsonl holds one violation per line (line N = vN),
// so every expected message below can be checked by reading that line of the file.
const D = '__tests__/fixtures/trust/dataset'

describe('validate: the evaluation-set contract', () => {
  it('accepts a valid dataset against its corpus listing (exit 0) and says what it holds', async () => {
    const r = await cli(['validate', '--dataset', `${D}/dataset.jsonl`, '--corpus', `${D}/corpus.txt`])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('8 well-formed questions (1 dev, 7 holdout); 2 unanswerable; 1 disputed')
    expect(r.stdout).toContain('20 chunks')
    expect(r.stdout).toMatch(/valid\n$/)
  })

  it('refuses every semantic violation at once, each with file, line, id and rule (exit 2)', async () => {
    const r = await cli(['validate', '--dataset', `${D}/invalid.jsonl`, '--corpus', `${D}/corpus.txt`])
    expect(r.code).toBe(2)
    expect(hasStackTrace(r.stderr)).toBe(false)
    const f = `${D}/invalid.jsonl`
    const expected = [
      `${f}:1: [v1] answerable_without_gold: answerable is true but gold_chunk_ids is empty`,
      `${f}:2: [v2] unanswerable_with_gold: answerable is false but gold_chunk_ids lists 1 chunk(s)`,
      `${f}:3: [v3] duplicate_fact_id: key_facts[1].id "f1" repeats key_facts[0].id`,
      `${f}:4: [v4] unknown_chunk: gold_chunk_ids[0] "c99" is not in the corpus listing ${D}/corpus.txt`,
      `${f}:5: [v5] schema: graded_relevance.c01 must be <= 3 (grades are integers 0..3)`,
      `${f}:6: [v6] unknown_chunk: graded_relevance key "c98" is not in the corpus listing`,
      `${f}:7: [v1] duplicate_id: id "v1" is used twice (also on line 1)`,
      `${f}:8: json: is not valid JSON`,
      `${f}:9: [v9] fact_chunk_not_gold: key_facts[0].chunk_ids[0] "c02" supports a key fact but is not in gold_chunk_ids`,
      `${f}:10: [v10] schema: graded_relevance.c01 must be integer`,
      `${f}:11: [v11] schema: missing required field "split"`,
      `${f}:12: [v12] gold_graded_zero: gold chunk "c01" has graded_relevance 0`,
      `${f}:13: [v13] distractor_is_gold: distractors[0] "c01" is also a gold chunk`,
      `${f}:14: [v14] schema: review.status must be one of "pending", "accepted", "disputed"`
    ]
    const lines = r.stderr.split('\n')
    expected.forEach((text, i) => expect(lines[i].startsWith(text)).toBe(true))
    expect(r.stderr).toContain(
      'invalid: 14 violations (answerable_without_gold 1, distractor_is_gold 1, duplicate_fact_id 1, duplicate_id 1, fact_chunk_not_gold 1, gold_graded_zero 1, json 1, schema 4, unanswerable_with_gold 1, unknown_chunk 2)'
    )
  })

  it('without --corpus, chunk existence is not checked and says so', async () => {
    const r = await cli(['validate', '--dataset', `${D}/invalid.jsonl`])
    expect(r.code).toBe(2)
    expect(r.stderr).not.toContain('unknown_chunk')
    expect(r.stderr).toContain('corpus: not given, so chunk existence was not checked')
  })

  it('against --previous, a changed question or gold needs a new id or a changelog entry', async () => {
    // previous.jsonl: h1 had another wording, h2 another gold (declared in changed.jsonl's changelog),
    // h4 had graded_relevance {c08: 2} (now none, undeclared), "gone" was removed.
    const r = await cli([
      'validate',
      '--dataset',
      `${D}/changed.jsonl`,
      '--corpus',
      `${D}/corpus.txt`,
      '--previous',
      `${D}/previous.jsonl`
    ])
    expect(r.code).toBe(2)
    const lines = r.stderr.split('\n')
    expect(lines[0]).toBe(
      `${D}/changed.jsonl:1: [h1] changed_without_changelog: question differs from ${D}/previous.jsonl:1 (was "How can I reset my password?", now "How do I reset my password?") without a new changelog entry; give the question a new id, or add {"changed": ["question"], "reason": "..."} to its changelog`
    )
    expect(lines[1]).toContain(
      `${D}/changed.jsonl:4: [h4] changed_without_changelog: graded_relevance differs from ${D}/previous.jsonl:4 (was [["c08",2]], now [])`
    )
    expect(r.stderr).not.toContain('[h2]')
    // a removed question leaves the graded set: listed, at its line in the previous copy
    expect(lines[2]).toBe(
      `${D}/previous.jsonl:5: [gone] question_removed: is gone from ${D}/changed.jsonl (split "holdout"); removing a question takes it out of the graded set; an exam change: make it on its own, reviewed, and merge it before the change it would grade (pull requests are graded with the base commit's copy)`
    )
    expect(r.stderr).toContain('1 ids removed: gone')
    expect(r.stderr).toContain('invalid: 3 violations (changed_without_changelog 2, question_removed 1)')
  })

  it('against --previous, every split, review status and slice change is listed item by item (id, line, from -> to), even with a changelog entry', async () => {
    // the hostile re-split of issue 12: regressed holdout questions moved to dev, or disputed; "valid" before
    const q = (id: string, over: Record<string, unknown> = {}): Record<string, unknown> => ({
      id,
      question: `${id}?`,
      answerable: true,
      gold_chunk_ids: ['c1'],
      split: 'holdout',
      category: 'billing',
      review: { status: 'accepted' },
      ...over
    })
    const f = writeFiles({
      'prev.jsonl': jsonl([q('a'), q('b'), q('c'), q('d'), q('e', { review: undefined })]),
      'now.jsonl': jsonl([
        q('a', { split: 'dev', changelog: [{ changed: ['split'], reason: 'moved to dev' }] }),
        q('b', { review: { status: 'disputed', note: 'gold looks wrong' } }),
        q('c', { category: 'account', difficulty: 'hard' }),
        q('d'),
        q('e', { review: { status: 'pending' } })
      ])
    })
    const r = await cli(['validate', '--dataset', f['now.jsonl'], '--previous', f['prev.jsonl']])
    expect(r.code).toBe(2)
    const hint =
      "an exam change: make it on its own, reviewed, and merge it before the change it would grade (pull requests are graded with the base commit's copy)"
    expect(r.stderr.split('\n').slice(0, 5)).toEqual([
      `${f['now.jsonl']}:1: [a] split_changed: split "holdout" -> "dev" (was ${f['prev.jsonl']}:1); ${hint}`,
      `${f['now.jsonl']}:2: [b] review_status_changed: review.status "accepted" -> "disputed" (was ${f['prev.jsonl']}:2); ${hint}`,
      `${f['now.jsonl']}:3: [c] slice_changed: category "billing" -> "account" (was ${f['prev.jsonl']}:3); ${hint}`,
      `${f['now.jsonl']}:3: [c] slice_changed: difficulty (none) -> "hard" (was ${f['prev.jsonl']}:3); ${hint}`,
      `${f['now.jsonl']}:5: [e] review_status_changed: review.status (none) -> "pending" (was ${f['prev.jsonl']}:5); ${hint}`
    ])
    expect(r.stderr).toContain('invalid: 5 violations (review_status_changed 2, slice_changed 2, split_changed 1)')
    // the same file against itself: nothing changed, valid
    expect((await cli(['validate', '--dataset', f['now.jsonl'], '--previous', f['now.jsonl']])).code).toBe(0)
  })

  it('against --previous, key facts and distractors are judgments too: a change needs a changelog entry', async () => {
    const q = {
      id: 'a',
      question: 'q?',
      answerable: true,
      gold_chunk_ids: ['c1', 'c2'],
      key_facts: [{ id: 'f1', text: 'x', chunk_ids: ['c1'] }],
      distractors: ['c3'],
      split: 'holdout'
    }
    const f = writeFiles({
      'prev.jsonl': jsonl([q]),
      'facts.jsonl': jsonl([{ ...q, key_facts: [{ id: 'f1', text: 'x', chunk_ids: ['c1', 'c2'] }] }]),
      'text-only.jsonl': jsonl([
        { ...q, key_facts: [{ id: 'f1', text: 'reworded', chunk_ids: ['c1'] }], distractors: ['c3'] }
      ]),
      'distractors.jsonl': jsonl([{ ...q, distractors: ['c3', 'c4'] }]),
      'declared.jsonl': jsonl([
        { ...q, distractors: ['c3', 'c4'], changelog: [{ changed: ['distractors'], reason: 'judged c4' }] }
      ])
    })
    const facts = await cli(['validate', '--dataset', f['facts.jsonl'], '--previous', f['prev.jsonl']])
    expect(facts.code).toBe(2)
    expect(facts.stderr).toContain('[a] changed_without_changelog: key_facts differs from')
    expect((await cli(['validate', '--dataset', f['text-only.jsonl'], '--previous', f['prev.jsonl']])).code).toBe(0) // a fact's text is for reviewers
    const distractors = await cli(['validate', '--dataset', f['distractors.jsonl'], '--previous', f['prev.jsonl']])
    expect(distractors.stderr).toContain('[a] changed_without_changelog: distractors differs from')
    expect((await cli(['validate', '--dataset', f['declared.jsonl'], '--previous', f['prev.jsonl']])).code).toBe(0)
  })

  it('an old changelog entry does not cover a new change; a new entry naming the field does', async () => {
    const q = {
      id: 'a',
      question: 'old?',
      answerable: true,
      gold_chunk_ids: ['c1'],
      split: 'holdout',
      changelog: [{ changed: ['question'], reason: 'typo' }]
    }
    const f = writeFiles({
      'prev.jsonl': jsonl([q]),
      'same-log.jsonl': jsonl([{ ...q, question: 'new?' }]),
      'new-log.jsonl': jsonl([
        { ...q, question: 'new?', changelog: [...q.changelog, { changed: ['question'], reason: 'clarified' }] }
      ]),
      'wrong-field.jsonl': jsonl([
        { ...q, question: 'new?', changelog: [...q.changelog, { changed: ['tags'], reason: 'retagged' }] }
      ])
    })
    expect((await cli(['validate', '--dataset', f['same-log.jsonl'], '--previous', f['prev.jsonl']])).code).toBe(2)
    expect((await cli(['validate', '--dataset', f['new-log.jsonl'], '--previous', f['prev.jsonl']])).code).toBe(0)
    const wrong = await cli(['validate', '--dataset', f['wrong-field.jsonl'], '--previous', f['prev.jsonl']])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('[a] changed_without_changelog: question differs')
  })

  it('accepts a JSON Lines corpus listing and refuses a duplicate chunk in it', async () => {
    const f = writeFiles({
      'd.jsonl': jsonl([{ id: 'a', question: 'q', answerable: true, gold_chunk_ids: ['x'], split: 'dev' }]),
      'corpus.jsonl': jsonl([{ chunk_id: 'x', doc_id: 'D1' }, { chunk_id: 'y' }]),
      'dup.txt': 'x\nx\n'
    })
    expect((await cli(['validate', '--dataset', f['d.jsonl'], '--corpus', f['corpus.jsonl']])).code).toBe(0)
    const dup = await cli(['validate', '--dataset', f['d.jsonl'], '--corpus', f['dup.txt']])
    expect(dup.code).toBe(2)
    expect(dup.stderr).toContain(`${f['dup.txt']}:2: corpus_duplicate: chunk "x" is listed twice (also on line 1)`)
  })

  it('the gate refuses a dataset that breaks its contract (exit 2, violations listed)', async () => {
    const f = writeFiles({
      'rules.yml': `version: 1\ndataset: { file: ${D}/invalid.jsonl, corpus: ${D}/corpus.txt }\nmetrics:\n  nDCG@3: { better: higher }\nchecks:\n  - { name: n, metric: nDCG@3, non_inferior: { margin: 0.1 } }\n`
    })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      `${D}/baseline.jsonl`,
      '--candidate',
      `${D}/candidate.jsonl`
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('the evaluation set breaks its contract (14 violations)')
    expect(r.stderr).toContain(`${D}/invalid.jsonl:1: [v1] answerable_without_gold`)
    expect(hasStackTrace(r.stderr)).toBe(false)
  })
})

describe('published dataset schema', () => {
  it("rules/dataset.schema.json is exactly the validator's schema (npm run schema writes it)", async () => {
    const { readFileSync } = await import('node:fs')
    const { DATASET_SCHEMA } = await import('../../src/readers/dataset/schema.js')
    expect(JSON.parse(readFileSync('rules/dataset.schema.json', 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(DATASET_SCHEMA))
    )
  })
})
