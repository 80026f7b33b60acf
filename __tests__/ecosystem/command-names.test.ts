/**
 * Every message that names a command names one that works: `retrieval-gate <command> --option` in src/ is a
 * command the CLI has with options its parser takes, and what a new user reads first (init's last line) is the next
 * command as they run this one (`retrieval-gate`, or `node dist/cli.js` from a clone: first-use-commands.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { COMMANDS, isCommand } from '../../src/commands/usage.js'
import { cli, tempDir } from '../helpers.js'

const src = join(process.cwd(), 'src')
const examples = join(process.cwd(), 'examples')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
  )
}

describe('commands named in messages', () => {
  it('every `retrieval-gate <command> --option` in src/ is a command and options the CLI accepts', () => {
    const wrong: string[] = []
    let seen = 0
    for (const file of sources(src)) {
      for (const m of readFileSync(file, 'utf8').matchAll(
        /retrieval-gate ([a-z]+)((?: +(?:--?[a-zA-Z][\w-]*|[A-Z]+|\$\{[^}]+\}|[\w./<>]+))*)/g
      )) {
        const [whole, command, rest] = m
        if (!isCommand(command)) continue // prose such as "retrieval-gate rules" or "retrieval-gate does not"
        seen += 1
        const options = COMMANDS[command].options as Record<string, { short?: string }>
        const shorts = new Set(Object.values(options).map((o) => o.short))
        for (const flag of rest.match(/(?<=\s)--?[a-zA-Z][\w-]*/g) ?? []) {
          const known = flag.startsWith('--')
            ? flag.slice(2) in options || flag === '--help'
            : shorts.has(flag.slice(1))
          if (!known) wrong.push(`${file.slice(src.length + 1)}: ${whole}`)
        }
      }
    }
    expect(seen).toBeGreaterThan(3)
    expect(wrong).toEqual([])
  })

  it('init ends with the next command, as the installed command runs it', async () => {
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
    expect(r.code).toBe(0)
    const last = r.stdout.trimEnd().split('\n').at(-1)
    expect(last).toBe(`Then: retrieval-gate explain --rules ${out}`)
  })
})
