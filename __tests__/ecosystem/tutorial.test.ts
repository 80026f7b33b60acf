/**
 * docs/tutorial.md is run as written: each `# file: NAME` YAML block is written to a scratch folder, each
 * `node dist/cli.js ...` line is run in-process against the source, which CI holds dist/ to (the exit code its `# exits N` comment
 * states), every line of the ```text block after a command is a line that command printed, and every JSON line
 * quoted is a line of the file it is taken from. A tutorial whose output drifts from the code fails here.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { main } from '../../src/commands/cli-main.js'
import { tempDir } from '../helpers.js'

interface Block {
  lang: string
  body: string
}

const DOC = 'docs/tutorial.md'

function blocks(text: string): Block[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], body: m[2] }))
}

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = ''
  const code = await main(
    args,
    (t) => (out += t),
    () => undefined,
    { isTTY: false, noColor: true }
  )
  return { code, out }
}

describe('docs/tutorial.md runs as written', () => {
  const all = blocks(readFileSync(DOC, 'utf8'))
  const dir = tempDir('rg-tutorial-')
  // a name the tutorial writes or asks the gate to write lives in the scratch folder; examples/ is the clone's
  const scratch = (arg: string): string =>
    !arg.startsWith('-') && !arg.includes('/') && /\.(yml|md|html|jsonl)$/.test(arg) ? join(dir, arg) : arg

  it('has its steps: at least five commands', () => {
    expect(all.filter((b) => b.lang === 'sh').length).toBeGreaterThanOrEqual(5)
  })

  it('every step prints what the tutorial quotes, and writes the files it names', async () => {
    let checked = 0
    for (let i = 0; i < all.length; i++) {
      const b = all[i]
      const file = /^# file: (\S+)\n/.exec(b.body)?.[1]
      if (b.lang === 'yaml' && file !== undefined) writeFileSync(join(dir, file), b.body)
      if (b.lang !== 'sh') continue
      for (const line of b.body.split('\n').filter((l) => l.startsWith('node dist/cli.js '))) {
        const [command, exits] = line.split(/\s+# exits /)
        const args = command.trim().split(/\s+/).slice(2).map(scratch)
        const { code, out } = await run(args)
        // the report keeps a number and its unit together with a no-break space; the tutorial shows a space
        const printed = out.split(`${dir}/`).join('').replaceAll('\u00a0', ' ').split('\n')
        expect([line, code]).toEqual([line, exits === undefined ? 0 : Number(exits)])
        const next = all[i + 1]
        if (next?.lang !== 'text') continue
        for (const quoted of next.body.split('\n').filter((l) => l !== '')) {
          expect([line, printed.includes(quoted) ? quoted : `not printed: ${quoted}`]).toEqual([line, quoted])
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8)
    // its JSON lines are lines of the files they are taken from: the example's rows, and what step 6 wrote
    const json = all.filter((b) => b.lang === 'json').map((b) => b.body.trim())
    expect(json).toHaveLength(2)
    expect(readFileSync('examples/baseline.jsonl', 'utf8').split('\n')).toContain(json[0])
    const regressed = join(dir, 'regressed.jsonl')
    expect(existsSync(join(dir, 'report.md')) && existsSync(join(dir, 'report.html'))).toBe(true)
    expect(readFileSync(regressed, 'utf8').split('\n')).toContain(json[1])
  })
})
