/**
 * Per-query and "all" values must equal trec_eval 10.0's printed output (`trec_eval -c -q` and `trec_eval -q`, 4 decimals)
 * on committed fixtures; see __tests__/fixtures/trec/README.md for the exact commands. trec_eval itself is
 * not needed here: its output is committed.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from '@jest/globals'
import { metricsCommand } from '../../src/commands/metrics.js'
import { cli } from '../helpers.js'

const dir = join(process.cwd(), '__tests__', 'fixtures', 'trec')
const qrels = join(dir, 'qrels.txt')

/** trec_eval name → our name, for relevance level 1 and 2 (-l 2). */
function nameMap(rel: 1 | 2): Map<string, string> {
  const r = rel === 1 ? '' : '(rel=2)'
  return new Map([
    ['map', `AP${r}`],
    ['P_5', `P${r}@5`],
    ['P_10', `P${r}@10`],
    ['recall_10', `R${r}@10`],
    ['recall_100', `R${r}@100`],
    ['ndcg', 'nDCG'],
    ['ndcg_cut_10', 'nDCG@10'],
    ['recip_rank', `RR${r}`],
    ['Rprec', `Rprec${r}`],
    ['success_1', `Success${r}@1`],
    ['success_5', `Success${r}@5`],
    ['success_10', `Success${r}@10`],
    ['bpref', `Bpref${r}`],
    ['num_ret', 'NumRet'],
    ['num_rel', `NumRel${r}`]
  ])
}

function parseOutput(text: string, rename?: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of text.split('\n')) {
    if (!line) continue
    const [name, qid, value] = line.split('\t')
    const key = rename ? rename.get(name.trim()) : name
    if (key === undefined) throw new Error(`unmapped measure ${name}`)
    out.set(`${key}\t${qid}`, value)
  }
  return out
}

async function ours(run: string, measures: string[], extra: { depth?: number } = {}): Promise<Map<string, string>> {
  let text = ''
  await metricsCommand(
    { qrels, run: join(dir, run), measures, perQuery: true, format: 'trec', complete: true, ...extra },
    (chunk) => (text += chunk)
  )
  return parseOutput(text)
}

const cases: Array<{ expected: string; rel: 1 | 2; depth?: number }> = [
  { expected: 'expected.txt', rel: 1 },
  { expected: 'expected-M5.txt', rel: 1, depth: 5 },
  { expected: 'expected-l2.txt', rel: 2 }
]

describe('trec_eval conformance', () => {
  for (const c of cases) {
    for (const run of ['run.txt', 'run-ungrouped.txt', 'run.jsonl']) {
      test(`${c.expected} on ${run}`, async () => {
        const names = nameMap(c.rel)
        const expected = parseOutput(readFileSync(join(dir, c.expected), 'utf8'), names)
        if (c.rel === 2) {
          // trec_eval -c sums num_rel over the qrels at grade > 0 whatever -l says (m_num_rel.c); we sum rows.
          expected.delete(`NumRel(rel=2)\tall`)
        }
        const got = await ours(run, [...new Set(names.values())], { depth: c.depth })
        if (c.rel === 2) got.delete(`NumRel(rel=2)\tall`)
        expect(got.size).toBe(expected.size)
        const mismatches: string[] = []
        for (const [key, value] of expected)
          if (got.get(key) !== value) mismatches.push(`${key}: expected ${value}, got ${got.get(key)}`)
        expect(mismatches).toEqual([])
      })
    }
  }

  test('the fixtures exercise the cases they claim', () => {
    const expected = parseOutput(readFileSync(join(dir, 'expected.txt'), 'utf8'), nameMap(1))
    // exact printf tie: 1/32 printed as 0.0312 (round half even), not 0.0313
    expect(expected.get('R@10\ttie32')).toBe('0.0312')
    expect(expected.get('NumRel\tnorel')).toBe('0')
    expect(expected.get('NumRet\tabsent')).toBe('0')
    expect(expected.has('NumRet\trunonly')).toBe(false)
    expect(expected.get('NumRet\tr03')).toBe('3')
    const qrelsText = readFileSync(qrels, 'utf8')
    expect(qrelsText).toMatch(/ -1\n/)
    expect(readFileSync(join(dir, 'run.txt'), 'utf8')).toMatch(/ [0-9.]+e[-+]?[0-9]+ /)
  })
})

/**
 * The command's defaults are trec_eval's defaults: `metrics -q` prints what `trec_eval -q` prints (every judged
 * query the run has, those without a relevant document included), `-c` what `trec_eval -c -q` prints, and where
 * trec_eval without -c stops (a judged query the run lacks) the command refuses and names -c.
 */
describe('metrics defaults = trec_eval defaults (through the CLI)', () => {
  const names = nameMap(1)
  const measureArgs = [...new Set(names.values())].flatMap((m) => ['-m', m])
  const metricsCli = (qrelsFile: string, runFile: string, extra: string[] = []) =>
    cli([
      'metrics',
      '--qrels',
      join(dir, qrelsFile),
      '--run',
      join(dir, runFile),
      ...measureArgs,
      '--per-query',
      ...extra
    ])

  test('no option: trec_eval -q on judged queries without a relevant document (expected-norel.txt)', async () => {
    const r = await metricsCli('qrels-norel.txt', 'run-norel.txt')
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const expected = parseOutput(readFileSync(join(dir, 'expected-norel.txt'), 'utf8'), names)
    expect(parseOutput(r.stdout)).toEqual(expected)
    // The figure the issue was about: trec_eval's map over all 45 judged queries, not over the 30 with a relevant one.
    expect(expected.get('AP\tall')).toBe('0.0418')
  })

  test('-c: trec_eval -c -q (expected-norel-c.txt, and expected.txt with a judged query absent from the run)', async () => {
    const norel = await metricsCli('qrels-norel.txt', 'run-norel.txt', ['-c'])
    expect(norel.code).toBe(0)
    expect(parseOutput(norel.stdout)).toEqual(
      parseOutput(readFileSync(join(dir, 'expected-norel-c.txt'), 'utf8'), names)
    )
    const absent = await metricsCli('qrels.txt', 'run.txt', ['-c'])
    expect(absent.code).toBe(0)
    expect(parseOutput(absent.stdout)).toEqual(parseOutput(readFileSync(join(dir, 'expected.txt'), 'utf8'), names))
  })

  test('no option, a judged query absent from the run: refused as trec_eval stops (exit 4 there), naming -c', async () => {
    const r = await metricsCli('qrels.txt', 'run.txt')
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('run.txt: has no ranking for 1 judged query ("absent")')
    expect(r.stderr).toContain('pass -c to score them 0, as trec_eval -c does')
  })

  test('--no-relevant exclude leaves trec_eval and says so on stderr, with the count', async () => {
    const r = await metricsCli('qrels-norel.txt', 'run-norel.txt', ['--no-relevant', 'exclude'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('AP\tall\t0.0627\n')
    expect(r.stderr).toBe(
      'retrieval-gate: 15 judged queries without a relevant document left out of the averages (--no-relevant exclude); trec_eval averages over them: leave out --no-relevant for its numbers\n'
    )
  })
})

describe('metrics --format jsonl', () => {
  test('writes numbers at 12 significant digits at most, as every JSON output does', async () => {
    // AP of the fixture's queries has values such as 0.2380952380952381 (17 digits as JSON.stringify writes them).
    const r = await cli([
      'metrics',
      '--qrels',
      join(dir, 'qrels-norel.txt'),
      '--run',
      join(dir, 'run-norel.txt'),
      '-m',
      'AP',
      '-m',
      'nDCG@10',
      '--per-query',
      '--format',
      'jsonl'
    ])
    expect(r.code).toBe(0)
    const numbers = r.stdout.match(/-?\d+\.\d+(?:e[-+]?\d+)?/g) ?? []
    expect(numbers.length).toBeGreaterThan(30)
    const digits = (n: string): number =>
      n
        .replace(/^-?0\.0*|e.*$/g, '')
        .replace('.', '')
        .replace(/^0+/, '').length
    expect(Math.max(...numbers.map(digits))).toBeLessThanOrEqual(12)
    expect(numbers.map(digits)).toContain(12)
    // Each value is the 12-digit rounding of the double, as the trec lines' 4 decimals are of the same double.
    const trec = await cli([
      'metrics',
      '--qrels',
      join(dir, 'qrels-norel.txt'),
      '--run',
      join(dir, 'run-norel.txt'),
      '-m',
      'AP',
      '--per-query'
    ])
    const first = JSON.parse(r.stdout.split('\n')[0]) as { query_id: string; AP: number }
    expect(trec.stdout).toContain(`AP\t${first.query_id}\t${first.AP.toFixed(4)}\n`)
  })
})
