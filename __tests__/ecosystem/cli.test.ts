/**
 * `init`, `explain` and the importers end to end through the CLI: a starter rules file must load and gate
 * the very files it was made from; explain must say what evaluate.ts will do; imported exports must gate
 * like any rows (and stop, never pass silently, on a missing value).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { SCHEMA_URL } from '../../src/commands/init.js'
import { loadRules } from '../../src/config/rules.js'
import { cli, hasStackTrace, jsonl, tempDir, writeFiles } from '../helpers.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'importers')
const examples = join(process.cwd(), 'examples')

describe('init', () => {
  it('writes starter rules that load, guess directions from names, and gate the files they came from', async () => {
    const out = join(tempDir(), 'retrieval-gate.yml')
    const r = await cli([
      'init',
      '--baseline',
      join(examples, 'baseline.jsonl'),
      '--candidate',
      join(examples, 'candidate.jsonl'),
      '--out',
      out
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const text = readFileSync(out, 'utf8')
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${SCHEMA_URL}`)
    const rules = loadRules(text, out)
    expect(rules.metrics.get('latency_ms')).toMatchObject({ better: 'lower', unit: 'ms', binary: false })
    expect(rules.metrics.get('hit@10')).toMatchObject({ better: 'higher', binary: true })
    expect(rules.metrics.get('recall@10')).toMatchObject({ better: 'higher', range: [0, 1] })
    expect(rules.slices).toEqual(['category', 'segment'])
    expect(rules.checks.map((c) => c.metric)).toEqual(['mrr@10', 'recall@10', 'hit@10', 'latency_ms'])
    expect(r.stdout).toMatch(
      /user_id: 100 distinct values shared by several queries each: not a slice; a cluster candidate/
    )
    const gate = await cli([
      'gate',
      '--rules',
      out,
      '--baseline',
      join(examples, 'baseline.jsonl'),
      '--candidate',
      join(examples, 'candidate.jsonl'),
      '--format',
      'json'
    ])
    expect([0, 1]).toContain(gate.code)
  })

  it('proposes (commented) a cluster bootstrap over an attribute that many queries share, and the proposal loads', async () => {
    const out = join(tempDir(), 'rules.yml')
    const r = await cli([
      'init',
      '--baseline',
      join(examples, 'baseline.jsonl'),
      '--candidate',
      join(examples, 'candidate.jsonl'),
      '--out',
      out
    ])
    expect(r.code).toBe(0)
    // The example has 400 queries from 100 users (4 each): user_id is not a slice but a cluster candidate.
    expect(r.stdout).toContain('user_id: 100 distinct values shared by several queries each')
    const text = readFileSync(out, 'utf8')
    const proposal = text.split('\n').find((l) => l.startsWith('# statistics:')) as string
    expect(proposal).toBe('# statistics: { confidence: 0.95, resamples: 10000, seed: 1, cluster: user_id }')
    const enabled = text.replace(/^statistics: .*$/m, '').replace(proposal, proposal.slice(2))
    expect(loadRules(enabled, 'rules.yml').statistics.cluster).toBe('user_id')
  })

  it('refuses to overwrite an existing file unless --force, and writes the same bytes every time', async () => {
    const out = join(tempDir(), 'rules.yml')
    writeFileSync(out, 'mine\n')
    const args = [
      'init',
      '--baseline',
      join(examples, 'baseline.jsonl'),
      '--candidate',
      join(examples, 'candidate.jsonl'),
      '--out',
      out
    ]
    const refused = await cli(args)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/rules\.yml: already exists\. pass --force/)
    expect(readFileSync(out, 'utf8')).toBe('mine\n')
    expect((await cli([...args, '--force'])).code).toBe(0)
    const first = readFileSync(out, 'utf8')
    expect((await cli([...args, '--force'])).code).toBe(0)
    expect(readFileSync(out, 'utf8')).toBe(first)
  })

  it('quotes field names YAML would misread, so the file loads with the same names', async () => {
    const rows = (shift: number) =>
      jsonl(
        Array.from({ length: 40 }, (_, i) => ({
          query_id: `q${i}`,
          yes: (i % 3) / 3 + shift,
          'P(rel=2)@10': i % 2,
          'cost usd': 0.001 * i,
          null: i / 2,
          group: i % 2 ? 'a' : 'b'
        }))
      )
    const f = writeFiles({ 'b.jsonl': rows(0), 'c.jsonl': rows(0.01) })
    const out = join(tempDir(), 'r.yml')
    const r = await cli(['init', '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl'], '--out', out])
    expect(r.stderr).toBe('')
    const rules = loadRules(readFileSync(out, 'utf8'), out)
    expect([...rules.metrics.keys()].sort()).toEqual(['P(rel=2)@10', 'cost usd', 'null', 'yes'])
    expect(rules.metrics.get('cost usd')!.better).toBe('lower')
    expect(rules.metrics.get('P(rel=2)@10')!.binary).toBe(true)
    expect(rules.slices).toEqual(['group'])
  })

  it('proposes ranking measures and judgments for runs given with --qrels', async () => {
    const out = join(tempDir(), 'r.yml')
    const r = await cli([
      'init',
      '--baseline',
      join(examples, 'runs/baseline.jsonl'),
      '--candidate',
      join(examples, 'runs/candidate.jsonl'),
      '--qrels',
      join(examples, 'runs/qrels.txt'),
      '--out',
      out
    ])
    expect(r.stderr).toBe('')
    const rules = loadRules(readFileSync(out, 'utf8'), out)
    expect(rules.judgments?.qrels).toBe(join(examples, 'runs/qrels.txt'))
    expect([...rules.metrics.keys()].sort()).toEqual(['R@100', 'RR', 'latency_ms', 'nDCG@10'])
    expect(rules.metrics.get('latency_ms')!.better).toBe('lower')
  })

  it('refuses a run given without --qrels, and says to pass it', async () => {
    const r = await cli([
      'init',
      '--baseline',
      join(process.cwd(), '__tests__/fixtures/trec/run.txt'),
      '--candidate',
      join(process.cwd(), '__tests__/fixtures/trec/run.txt'),
      '--out',
      join(tempDir(), 'x.yml')
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/run\.txt: looks like a run .*pass --qrels/)
    expect(hasStackTrace(r.stderr)).toBe(false)
  })

  it('reads a ragas export with --id-field and leaves the question text out of the slices', async () => {
    const out = join(tempDir(), 'r.yml')
    const r = await cli([
      'init',
      '--baseline',
      join(fx, 'ragas/baseline.csv'),
      '--candidate',
      join(fx, 'ragas/candidate.csv'),
      '--id-field',
      'user_input',
      '--out',
      out
    ])
    expect(r.stderr).toBe('')
    const rules = loadRules(readFileSync(out, 'utf8'), out)
    expect([...rules.metrics.keys()].sort()).toEqual([
      'answer_relevancy',
      'context_precision',
      'context_recall',
      'faithfulness'
    ])
    expect(rules.slices).toEqual([])
    expect(readFileSync(out, 'utf8')).toMatch(/# Only 8 paired queries: with min_per_slice 30/)
  })
})

describe('explain', () => {
  it('says what each check of the example rules demands, as evaluate.ts decides it', async () => {
    const r = await cli(['explain', '--rules', join(examples, 'rules.yml')])
    expect(r.code).toBe(0)
    const t = r.stdout
    expect(t).toContain(
      'Fails if the lower 95% bound of the change in recall@10 (candidate - baseline) for segment = new is below -0.02 (-2.0 points).'
    )
    expect(t).toContain(
      'Fails if the upper 95% bound of the change in latency_ms (candidate - baseline) is above +20% of the baseline mean.'
    )
    expect(t).toContain(
      'Passes only if the exact McNemar p-value is below 0.05 and more queries gained (0 -> 1) than lost (1 -> 0).'
    )
    expect(t).toContain(
      'Fails if more than 40 queries within any one value of category got worse on recall@10: dropped'
    )
    expect(t).toContain('Verdict: pass only if all 5 checks count as pass; an inconclusive check counts as a fail.')
    expect(t.match(/^\d\. /gm)).toHaveLength(5)
  })

  it('flips words for on_inconclusive: pass, lower-is-better superiority, and multiplicity', async () => {
    const f = writeFiles({
      'r.yml': [
        'version: 1',
        'metrics:',
        '  cost: { better: lower, unit: usd }',
        '  ndcg: { better: higher, range: [0, 1] }',
        'statistics: { confidence: 0.95, multiplicity: bonferroni }',
        'on_inconclusive: pass',
        'checks:',
        '  - { name: cheaper, metric: cost, superior: { margin: 0.5 } }',
        '  - { name: ndcg holds, metric: ndcg, non_inferior: { margin: 0.01 } }',
        ''
      ].join('\n')
    })
    const r = await cli(['explain', '--rules', f['r.yml']])
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain('every interval below is computed at 97.5% confidence instead of 95%')
    expect(r.stdout).toContain(
      'Passes only if the upper 97.5% bound of the change in cost (candidate - baseline) is below -0.5 (-0.5000 usd)'
    )
    expect(r.stdout).toContain(
      'Fails only if the upper 97.5% bound of the change in ndcg (candidate - baseline) is below -0.01 (-1.0 points) (shown worse by more than the margin).'
    )
    expect(r.stdout).toContain('counts as a pass (choose this knowingly')
  })

  it('lists every capability the rules ask for, by its key and what it defends against (from the registry)', async () => {
    const rules = readFileSync(join(examples, 'rules.yml'), 'utf8')
    const plain = await cli(['explain', '--rules', writeFiles({ 'r.yml': rules })['r.yml']])
    expect(plain.stdout).not.toContain('Also configured')
    const extra = 'comparability: { must_match: [corpus] }\nhistory: { runs: 5 }\nstatistics: { min_seeds: 1 }\n'
    const f = writeFiles({ 'r.yml': rules.replace(/^statistics:.*\n/m, '') + extra })
    const r = await cli(['explain', '--rules', f['r.yml']])
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain(
      [
        'Also configured (see the report and docs/architecture.md):',
        '  comparability (rules comparability): the two sides were built on the same snapshot (corpus, chunker, judge, metric code): the same exam.',
        '  history (rules history): a slow slide no single PR shows: the gated metrics over the default branch’s last gate runs.',
        '  seeds (rules statistics.min_seeds): one lucky seed: intervals over independently trained seeds, each seed counted once by its content.',
        ''
      ].join('\n')
    )
  })

  it('refuses invalid rules exactly as the gate does (exit 2, file and key)', async () => {
    const f = writeFiles({
      'bad.yml':
        'version: 1\nmetrics: { m: { better: up } }\nchecks: [{ name: x, metric: m, non_inferior: { margin: 0.1 } }]\n'
    })
    const r = await cli(['explain', '--rules', f['bad.yml']])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/bad\.yml:2 \(metrics\.m\.better\)/)
  })
})

describe('gating imported exports', () => {
  const ragasRules = (missing: 'error' | 'zero') =>
    writeFiles({
      'r.yml': [
        'version: 1',
        'metrics:',
        '  context_precision: { better: higher, range: [0, 1] }',
        '  faithfulness: { better: higher, range: [0, 1] }',
        `queries: { missing: ${missing}, min_per_slice: 5 }`,
        'statistics: { resamples: 1000 }',
        'checks:',
        '  - { name: precision holds, metric: context_precision, non_inferior: { margin: 0.01 } }',
        '  - { name: faithful, metric: faithfulness, non_inferior: { margin: 0.05 } }',
        ''
      ].join('\n')
    })['r.yml']

  it('a ragas run with a failed faithfulness evaluation stops the gate instead of counting it as 0', async () => {
    const r = await cli([
      'gate',
      '--rules',
      ragasRules('error'),
      '--baseline',
      join(fx, 'ragas/baseline.csv'),
      '--candidate',
      join(fx, 'ragas/candidate.csv'),
      '--id-field',
      'user_input'
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/missing metric values: "Why was my card declined\?" \(.*candidate\.csv:7, faithfulness\)/)
    // The file blamed is the one without the value (the candidate), not the baseline.
    expect(r.stderr).toMatch(/candidate\.csv: missing metric values/)
    expect(r.stderr).not.toMatch(/baseline\.csv: missing metric values/)
  })

  it('with queries.missing: zero the same files gate, and the filled value is counted', async () => {
    const json = join(tempDir(), 'report.json')
    const r = await cli([
      'gate',
      '--rules',
      ragasRules('zero'),
      '--baseline',
      join(fx, 'ragas/baseline.csv'),
      '--candidate',
      join(fx, 'ragas/candidate.csv'),
      '--id-field',
      'user_input',
      '--json',
      json
    ])
    expect([0, 1]).toContain(r.code)
    const report = JSON.parse(readFileSync(json, 'utf8'))
    expect(JSON.stringify(report.coverage)).toMatch(/"metric":"faithfulness","baseline":0,"candidate":1/)
  })

  it('gates deepeval test runs and ranx runs scored against JSON judgments', async () => {
    const de = writeFiles({
      'r.yml':
        // A handful of test cases cannot support a statistical pass (docs/statistics.md): the policies let the import be read from a passing gate.
        'version: 1\nmetrics:\n  Contextual Precision: { better: higher, range: [0, 1] }\nqueries: { min_per_slice: 5 }\nstatistics: { resamples: 1000 }\non_inconclusive: pass\non_too_few: pass\nchecks:\n  - { name: cp, metric: Contextual Precision, non_inferior: { margin: 0.01 } }\n'
    })
    const r1 = await cli([
      'gate',
      '--rules',
      de['r.yml'],
      '--baseline',
      join(fx, 'deepeval/baseline.json'),
      '--candidate',
      join(fx, 'deepeval/candidate.json'),
      '--format',
      'json'
    ])
    expect(r1.code).toBe(0)
    expect(JSON.parse(r1.stdout).verdict).toBe('pass')
    const rx = writeFiles({
      'r.yml': `version: 1\njudgments: { qrels: ${JSON.stringify(join(fx, 'ranx/qrels.json'))}, no_relevant: zero }\nmetrics:\n  nDCG@10: { better: higher, range: [0, 1] }\nqueries: { min_per_slice: 5 }\nstatistics: { resamples: 1000 }\non_inconclusive: pass\non_too_few: pass\nchecks:\n  - { name: ndcg, metric: nDCG@10, non_inferior: { margin: 0.01 } }\n`
    })
    // the same run written by ranx and by json.dump: every difference is 0, so the check holds
    const r2 = await cli([
      'gate',
      '--rules',
      rx['r.yml'],
      '--baseline',
      join(fx, 'ranx/run.json'),
      '--candidate',
      join(fx, 'pytrec_eval/run.json'),
      '--format',
      'json'
    ])
    expect(r2.stderr).toBe('')
    const report = JSON.parse(r2.stdout)
    expect(report.verdict).toBe('pass')
    expect(report.checks[0].units[0].comparison.delta).toBe(0)
  })

  it('refuses an unknown --input-format with the list', async () => {
    const r = await cli([
      'gate',
      '--rules',
      ragasRules('error'),
      '--baseline',
      'b',
      '--candidate',
      'c',
      '--input-format',
      'xlsx'
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/unknown format "xlsx".*parquet, ragas, deepeval, pytrec_eval, ir_measures, trec_eval/)
  })
})
