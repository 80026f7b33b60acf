/**
 * Every command answers `--help` / `-h` with its own usage (exit 0), and each usage lists every option its
 * parser accepts, so the two cannot drift apart.
 */
import { describe, expect, it } from '@jest/globals'
import { COMMANDS } from '../../src/commands/usage.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cli } from '../helpers.js'

const names = Object.keys(COMMANDS) as Array<keyof typeof COMMANDS>

describe('<command> --help', () => {
  for (const name of names) {
    for (const flag of ['--help', '-h']) {
      it(`${name} ${flag} prints the ${name} usage on stdout and exits 0`, async () => {
        const r = await cli([name, flag])
        expect(r.stderr).toBe('')
        expect(r.code).toBe(0)
        expect(r.stdout).toContain(`retrieval-gate ${name} `)
        for (const other of names) if (other !== name) expect(r.stdout).not.toContain(`retrieval-gate ${other} --`)
      })
    }
  }

  it('--help wins over incomplete or wrong arguments', async () => {
    const r = await cli(['gate', '--rules', 'r.yml', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('retrieval-gate gate --rules')
  })

  it('"help gate" prints the gate usage', async () => {
    const r = await cli(['help', 'gate'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('retrieval-gate gate --rules')
    expect(r.stdout).not.toContain('retrieval-gate metrics --')
  })

  it('a wrong gate line prints the one-line error and where the usage is, not the usage', async () => {
    const r = await cli(['gate', '--rules', 'r.yml'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('retrieval-gate: missing --baseline, --candidate\nsee retrieval-gate gate --help\n')
  })

  it('a misspelt command gets a "did you mean"', async () => {
    const r = await cli(['gat'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown command "gat" (did you mean "gate"?)')
  })

  it('a misspelt option gets a "did you mean" and where the usage is', async () => {
    const r = await cli(['gate', '--rules', 'r.yml', '--baseline-manfest', 'm.json'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /^retrieval-gate: Unknown option '--baseline-manfest'.* \(did you mean "--baseline-manifest"\?\)\nsee retrieval-gate gate --help\n$/
    )
  })

  it('a wrong value names the values and where the usage is (metrics --format)', async () => {
    const r = await cli(['metrics', '--qrels', 'q', '--run', 'r', '-m', 'AP', '--format', 'csv'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'retrieval-gate: --format must be trec or jsonl, not "csv"\nsee retrieval-gate metrics --help\n'
    )
  })

  it('the full --help lists every command, one per line with its summary, and the exit codes', async () => {
    const r = await cli(['--help'])
    expect(r.code).toBe(0)
    for (const name of names) expect(r.stdout).toMatch(new RegExp(`^  ${name} +${COMMANDS[name].summary}$`, 'm'))
    expect(r.stdout).toContain('3 internal error')
  })
})

describe('each usage lists every option its parser accepts', () => {
  for (const name of names) {
    it(name, async () => {
      const usage = (await cli([name, '--help'])).stdout
      const options = COMMANDS[name].options as Record<string, { short?: string }>
      const unlisted: string[] = []
      for (const [option, spec] of Object.entries(options)) {
        if (!new RegExp(`--${option}(?![\\w-])`).test(usage)) unlisted.push(`--${option}`)
        if (spec.short !== undefined && !new RegExp(`(^|[\\s\\[(])-${spec.short}(?![\\w-])`).test(usage))
          unlisted.push(`-${spec.short}`)
      }
      expect(unlisted).toEqual([])
    })
  }

  it('the gate usage names --input-format and --id-field', async () => {
    const usage = (await cli(['gate', '--help'])).stdout
    expect(usage).toMatch(/^ {6}--input-format <format> +name the format of per-query files: jsonl, csv, /m)
    expect(usage).toMatch(/^ {6}--id-field <name> +the query id field/m)
  })
})

describe('help is one option per line, generated from the declarations (the convention commander prints)', () => {
  for (const name of names) {
    it(`${name}: each option its own line, "  -s, --name <value>  description", then the exit codes (3 included)`, async () => {
      const usage = (await cli([name, '--help'])).stdout
      const options = COMMANDS[name].options as Record<string, { short?: string; value?: string; description: string }>
      for (const [option, spec] of Object.entries(options)) {
        const flags = `${spec.short === undefined ? '    ' : `-${spec.short}, `}--${option}${spec.value === undefined ? '' : ` ${spec.value}`}`
        const line = usage.split('\n').find((l) => l.startsWith(`  ${flags} `))
        expect({ option, found: line !== undefined }).toEqual({ option, found: true })
        expect(line).toContain(spec.description)
      }
      expect(usage).toMatch(/^Usage: retrieval-gate \S+ .*\[options\]$/m)
      expect(usage).toMatch(/^Exit codes: 0 pass .*, 3 internal error/m)
      // The descriptions start in one column.
      const columns = new Set(
        usage
          .split('\n')
          .filter((l) => /^ {2}(-\w, | {4})--/.test(l))
          .map((l) => /^ {2}(?:-\w, | {4})--\S+(?: <\w+>)? +(?=\S)/.exec(l)?.[0].length)
      )
      expect(columns.size).toBe(1)
    })
  }

  it('metrics --help lists its formats and its -c', async () => {
    const usage = (await cli(['metrics', '--help'])).stdout
    expect(usage).toMatch(/^ {6}--format <format> +trec \(MEASURE<tab>QUERY<tab>VALUE, the default\) or jsonl/m)
    expect(usage).toMatch(/^ {2}-c, --complete +score a judged query the run lacks 0, as trec_eval -c/m)
    expect(usage).not.toContain('as trec_eval -c -q does')
  })
})

describe('docs/cli.md', () => {
  it('shows the help the code prints (retrieval-gate --help and metrics --help)', async () => {
    const doc = readFileSync(join(process.cwd(), 'docs', 'cli.md'), 'utf8')
    for (const args of [['--help'], ['metrics', '--help']]) {
      const printed = (await cli(args)).stdout
      expect(doc).toContain('```text\n' + printed + '```')
    }
  })
})
