/**
 * Every command answers `--help` / `-h` with its own usage (exit 0), and each usage lists every option its
 * parser accepts, so the two cannot drift apart.
 */
import { describe, expect, it } from '@jest/globals'
import { COMMANDS } from '../../src/commands/usage.js'
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

  it('a wrong gate line prints the gate usage, not every command', async () => {
    const r = await cli(['gate', '--rules', 'r.yml'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('missing --baseline, --candidate')
    expect(r.stderr).toContain('retrieval-gate gate --rules')
    expect(r.stderr).not.toContain('retrieval-gate metrics --')
  })

  it('a misspelt command gets a "did you mean"', async () => {
    const r = await cli(['gat'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown command "gat" (did you mean "gate"?)')
  })

  it('a misspelt option gets a "did you mean" and the command usage', async () => {
    const r = await cli(['gate', '--rules', 'r.yml', '--baseline-manfest', 'm.json'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/Unknown option '--baseline-manfest'.* \(did you mean "--baseline-manifest"\?\)/)
    expect(r.stderr).toContain('retrieval-gate gate --rules')
  })

  it('the full --help lists every command', async () => {
    const r = await cli(['--help'])
    expect(r.code).toBe(0)
    for (const name of names) expect(r.stdout).toContain(`retrieval-gate ${name} --`)
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
        if (spec.short !== undefined && !new RegExp(`(^|[\\s\\[(])-${spec.short}(?![\\w-])`).test(usage)) unlisted.push(`-${spec.short}`)
      }
      expect(unlisted).toEqual([])
    })
  }

  it('the gate usage names --input-format and --id-field', async () => {
    const usage = (await cli(['gate', '--help'])).stdout
    expect(usage).toMatch(/\[--input-format F\]/)
    expect(usage).toMatch(/\[--id-field NAME\]/)
  })
})
