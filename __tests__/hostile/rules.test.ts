/**
 * Hostile rules files (src/config/, src/load.ts), through the in-process CLI: every refusal names the rules
 * file, the line and the rule key, with a "did you mean" for typos.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { expectNoPollution, RULES, rowsJsonl, runCase, type HostileCase } from './harness.js'

const ok = rowsJsonl()
const withRules = (rules: string | Buffer) => ({ 'rules.yml': rules, 'b.jsonl': ok, 'c.jsonl': ok })
const refuse = (name: string, rules: string | Buffer, where: string, message: RegExp): HostileCase => ({
  name,
  files: withRules(rules),
  code: 2,
  where,
  message
})
const swap = (from: string, to: string) => {
  if (!RULES.includes(from)) throw new Error(`test setup: "${from}" is not in the rules`)
  return RULES.replace(from, to)
}
const check = (body: string) => RULES + body

/** 9 levels of 9 aliases each: 9^9 = 387 million strings if expanded. */
function aliasBomb(): string {
  const lines = ['version: 1', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  for (let i = 1; i < 9; i++) {
    const name = String.fromCharCode(97 + i)
    const prev = String.fromCharCode(96 + i)
    lines.push(
      `${name}: &${name} [${Array(9)
        .fill('*' + prev)
        .join(',')}]`
    )
  }
  return lines.join('\n') + '\n'
}

export const RULES_CASES: HostileCase[] = [
  refuse('empty rules file', '', 'rules.yml', /the rules file is empty/),
  refuse('rules file of blank lines and comments', '\n# only a comment\n\n', 'rules.yml', /is empty|must be a mapping/),
  refuse('rules file that is a list', '- version: 1\n', 'rules.yml:1', /must be a mapping/),
  refuse('rules file that is a scalar', 'hello\n', 'rules.yml:1', /must be a mapping/),
  refuse(
    'typo in a top-level key, with did-you-mean',
    swap('checks:', 'chekcs:'),
    'rules.yml:8',
    /unknown key "chekcs" \(did you mean "checks"\?\)/
  ),
  refuse(
    'typo in a check key, with did-you-mean',
    swap('non_inferior:', 'non_inferiour:'),
    'checks[0].non_inferiour',
    /unknown key "non_inferiour" \(did you mean "non_inferior"\?\)/
  ),
  refuse(
    'typo in a metric key, with did-you-mean',
    swap('better: higher', 'beter: higher'),
    'metrics.m.beter',
    /did you mean "better"/
  ),
  refuse(
    'typo in a statistics key',
    swap('resamples: 200', 'resample: 200'),
    'statistics.resample',
    /did you mean "resamples"/
  ),
  refuse(
    'typo in the metric a check names',
    swap('metric: m', 'metric: n'),
    'checks[0].metric',
    /names metric "n", which is not under metrics/
  ),
  refuse(
    'an unknown direction',
    swap('better: higher', 'better: up'),
    'metrics.m.better',
    /must be one of "higher", "lower"/
  ),
  refuse(
    'a number written as a string (confidence)',
    check('').replace(
      'statistics: { resamples: 200, seed: 3 }',
      'statistics: { resamples: 200, seed: 3, confidence: "0.9" }'
    ),
    'statistics.confidence',
    /must be a number, not string.*without quotes/
  ),
  refuse(
    'a number written as a string (resamples)',
    swap('resamples: 200', 'resamples: "200"'),
    'statistics.resamples',
    /must be an integer, not string/
  ),
  refuse(
    'a margin written as a plain string',
    swap('margin: 0.1', 'margin: "0.1"'),
    'checks[0].non_inferior.margin',
    /"0\.1" is not a valid margin/
  ),
  refuse('confidence 1.5', swap('seed: 3 }', 'seed: 3, confidence: 1.5 }'), 'statistics.confidence', /must be < 1/),
  refuse('confidence 0.5', swap('seed: 3 }', 'seed: 3, confidence: 0.5 }'), 'statistics.confidence', /must be > 0\.5/),
  refuse('negative margin', swap('margin: 0.1', 'margin: -0.1'), 'checks[0].non_inferior.margin', /must be >= 0/),
  refuse(
    'margin larger than the metric range',
    swap('margin: 0.1', 'margin: 1.5'),
    'checks[0].non_inferior.margin',
    /larger than the whole range .* could never fail/
  ),
  refuse(
    'relative margin over 100%',
    swap('margin: 0.1', 'margin: 150%'),
    'checks[0].non_inferior.margin',
    /"150%" is not a valid margin/
  ),
  refuse(
    'infinite margin (.inf)',
    swap('margin: 0.1', 'margin: .inf'),
    'rules.yml:11 (checks[0].non_inferior.margin)',
    /Infinity is not a finite number/
  ),
  refuse(
    'margin 1e400 overflows',
    swap('margin: 0.1', 'margin: 1e400'),
    'checks[0].non_inferior.margin',
    /Infinity is not a finite number/
  ),
  refuse(
    'NaN fill (.nan)',
    swap('range: [0, 1] }', 'range: [0, 1], fill: .nan }'),
    'metrics.m.fill',
    /NaN is not a finite number/
  ),
  refuse(
    'infinite range bound',
    swap('range: [0, 1]', 'range: [0, .inf]'),
    'metrics.m.range[1]',
    /Infinity is not a finite number/
  ),
  refuse(
    'alpha out of range',
    check('  - { name: x, metric: m, superior: { alpha: 0.9 } }\n'),
    'checks[1].superior.alpha',
    /must be <= 0\.5/
  ),
  refuse(
    'share above 1',
    check('  - { name: x, metric: m, max_regressions: { share: 1.5 } }\n'),
    'checks[1].max_regressions.share',
    /must be <= 1/
  ),
  refuse(
    'resamples above the 1,000,000 cap',
    swap('resamples: 200', 'resamples: 1000001'),
    'statistics.resamples',
    /must be <= 1000000/
  ),
  refuse('resamples below 100', swap('resamples: 200', 'resamples: 10'), 'statistics.resamples', /must be >= 100/),
  refuse(
    'more than 100 checks',
    RULES +
      Array.from({ length: 100 }, (_, i) => `  - { name: c${i}, metric: m, non_inferior: { margin: 0.1 } }\n`).join(''),
    'checks',
    /must NOT have more than 100 items/
  ),
  refuse(
    'two checks with the same name',
    check('  - { name: m holds, metric: m, non_inferior: { margin: 0.1 } }\n'),
    'checks[1].name',
    /two checks are named "m holds"/
  ),
  refuse(
    'duplicate YAML key',
    RULES + 'queries: { missing: zero }\n',
    'rules.yml:12',
    /a key is repeated in the same mapping/
  ),
  refuse(
    'duplicate key inside a mapping',
    swap('resamples: 200, seed: 3', 'resamples: 200, seed: 3, seed: 4'),
    'rules.yml:7',
    /repeated/
  ),
  refuse(
    'a YAML alias',
    check(
      '  - { name: x, metric: m, non_inferior: &n { margin: 0.1 } }\n  - { name: y, metric: m, non_inferior: *n }\n'
    ),
    'rules.yml:13',
    /uses a YAML alias/
  ),
  refuse(
    'a YAML merge key',
    check('  - { name: x, metric: m, <<: { non_inferior: { margin: 0.1 } } }\n'),
    'rules.yml',
    /unknown key "<<"|alias|merge/
  ),
  refuse('a mapping used as a key', RULES + '{ a: 1 }: 2\n', 'rules.yml:12', /uses a list or mapping as a key/),
  refuse(
    'a YAML tag (!!binary as a key, found by the fuzzer)',
    '? !!binary\n',
    'rules.yml:1',
    /uses a YAML tag \(tag:yaml\.org,2002:binary\)/
  ),
  refuse(
    'a YAML tag on a value (!!float)',
    swap('margin: 0.1', 'margin: !!float 0.1'),
    'rules.yml:11',
    /uses a YAML tag/
  ),
  refuse('a list used as a key', RULES + '? [a, b]\n: 2\n', 'rules.yml:12', /uses a list or mapping as a key/),
  refuse(
    'YAML syntax error (tab indentation)',
    'version: 1\nmetrics:\n\tm: { better: higher }\n',
    'rules.yml:3',
    /not valid YAML/
  ),
  refuse(
    'invalid UTF-8 in the rules',
    Buffer.concat([Buffer.from(RULES), Buffer.from([0x23, 0x20, 0xff, 0x0a])]),
    'rules.yml',
    /not valid UTF-8/
  ),
  refuse(
    'a rules file over the 1 MiB cap',
    RULES + '#' + 'x'.repeat(1024 * 1024) + '\n',
    'rules.yml',
    /is \d+ bytes; a rules file is read whole and the limit is 1048576/
  ),
  refuse('__proto__ as a rules key', RULES + '__proto__: { polluted: 1 }\n', 'rules.yml', /unknown key "__proto__"/),
  refuse(
    'constructor as a check key',
    check('  - { name: x, metric: m, constructor: 1, non_inferior: { margin: 0.1 } }\n'),
    'checks[1].constructor',
    /unknown key "constructor"/
  ),
  refuse(
    'McNemar on a metric not declared binary',
    check('  - { name: x, metric: m, superior: { test: mcnemar } }\n'),
    'checks[1].superior.test',
    /not declared binary/
  ),
  refuse('version 2', swap('version: 1', 'version: 2'), 'version', /must be 1/),
  {
    name: 'BOM and CRLF in the rules are accepted',
    files: withRules('\ufeff' + RULES.replace(/\n/g, '\r\n')),
    code: 0
  },
  {
    name: 'a metric named constructor, and a check named __proto__',
    files: {
      'rules.yml': RULES.replace(/\bm\b/g, 'constructor').replace('name: constructor holds', 'name: __proto__'),
      'b.jsonl': rowsJsonl().replace(/"m"/g, '"constructor"'),
      'c.jsonl': rowsJsonl().replace(/"m"/g, '"constructor"')
    },
    code: 0,
    check: () => expectNoPollution()
  }
]

describe('hostile rules', () => {
  it.each(RULES_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await runCase(c)
  })

  it('refuses a YAML alias bomb fast (aliases off, nothing expanded)', async () => {
    const start = process.hrtime.bigint()
    await runCase({
      name: 'alias bomb',
      files: withRules(aliasBomb()),
      code: 2,
      where: 'rules.yml:3',
      message: /uses a YAML alias/
    })
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    expect(ms).toBeLessThan(5000)
  })

  afterAll(() => {
    expectNoPollution()
  })
})
