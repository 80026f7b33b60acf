/**
 * Issue 34 item 16: the README, docs/cli.md and the CLI itself lead with commands that work before the package is on
 * the npm registry (it is not until the first release, docs/releasing.md): `node dist/cli.js` in a clone, or the
 * tarball `npm pack` makes; the registry install is named as coming with the first release, never as the way in.
 * The commands the CLI prints for the user to run next are written the way the user started it (invocation.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { main } from '../../src/commands/cli-main.js'
import { invocation } from '../../src/commands/invocation.js'
import { cli, tempDir } from '../helpers.js'

/** The registry forms, which fail until the package is published. */
const REGISTRY = /^(npm install -g retrieval-gate|npx retrieval-gate)\b/

/** The first fenced block after `heading` in `file`, its lines. */
function firstBlock(file: string, heading: string): string[] {
  const text = readFileSync(file, 'utf8')
  const at = text.indexOf(heading)
  expect(at).toBeGreaterThan(-1)
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at))?.[1] ?? ''
  return block.split('\n').filter((l) => l.trim() !== '')
}

async function run(args: string[], command?: string): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(
    args,
    (t) => (out += t),
    (t) => (err += t),
    { isTTY: false, noColor: true, ...(command === undefined ? {} : { command }) }
  )
  return { code, out, err }
}

describe('install: what works before the first release comes first', () => {
  for (const [file, heading] of [
    ['README.md', '## Install'],
    ['docs/cli.md', '## Install']
  ]) {
    it(`${file}: the install block runs dist/cli.js from a clone and installs the packed tarball, no registry form`, () => {
      const lines = firstBlock(file, heading)
      expect(lines.some((l) => l.startsWith('node dist/cli.js'))).toBe(true)
      expect(lines.some((l) => /^npm pack && npm install -g \.\/retrieval-gate-\d+\.\d+\.\d+\.tgz/.test(l))).toBe(true)
      expect(lines.filter((l) => REGISTRY.test(l))).toEqual([])
      const section = readFileSync(file, 'utf8').split(heading)[1].split('\n## ')[0]
      expect(section).toMatch(/first release/)
      expect(section).toContain('releasing.md')
    })
  }

  it('the tarball name in the docs is the one npm pack writes (package.json name and version)', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string }
    const tgz = `./${pkg.name}-${pkg.version}.tgz`
    expect(firstBlock('README.md', '## Install').join('\n')).toContain(tgz)
    expect(firstBlock('docs/cli.md', '## Install').join('\n')).toContain(tgz)
  })

  it('docs/releasing.md says when the registry install starts: npm publish with the first release', () => {
    const doc = readFileSync('docs/releasing.md', 'utf8')
    expect(doc).toContain('npm publish')
    expect(doc).toMatch(/first release/)
  })

  it('--help says how to run it from a clone and from the tarball, and that the registry comes with the first release', async () => {
    const help = (await cli(['--help'])).stdout
    expect(help).toContain('From a clone: node dist/cli.js <command>')
    expect(help).toContain('npm pack, then npm install -g ./retrieval-gate-')
    expect(help).toMatch(/npm registry .* from the first release on/)
    expect(help).not.toMatch(/without installing: npx/)
  })
})

describe('the commands the CLI prints are the way the user runs it', () => {
  it('invocation: the installed command by its name, anything else as node and the script', () => {
    expect(invocation('/usr/local/bin/retrieval-gate', '/home/u/work')).toBe('retrieval-gate')
    expect(invocation('/home/u/work/node_modules/.bin/retrieval-gate', '/home/u/work')).toBe('retrieval-gate')
    expect(invocation('/home/u/rg/dist/cli.js', '/home/u/rg')).toBe('node dist/cli.js')
    expect(invocation('/opt/rg/dist/cli.js', '/home/u/work')).toBe('node /opt/rg/dist/cli.js')
    expect(invocation('/home/u/my rg/dist/cli.js', '/tmp')).toBe('node "/home/u/my rg/dist/cli.js"')
    expect(invocation(undefined, '/tmp')).toBe('retrieval-gate')
  })

  it("init's last line and a usage error's pointer, from a clone: node dist/cli.js", async () => {
    const out = join(tempDir(), 'retrieval-gate.yml')
    const examples = join(process.cwd(), 'examples')
    const args = [
      'init',
      '--baseline',
      join(examples, 'baseline.jsonl'),
      '--candidate',
      join(examples, 'candidate.jsonl')
    ]
    const r = await run([...args, '--out', out], 'node dist/cli.js')
    expect(r.code).toBe(0)
    expect(r.out.trimEnd().split('\n').at(-1)).toBe(`Then: node dist/cli.js explain --rules ${out}`)
    expect(r.out).not.toContain('npx')
    const wrong = await run(['gate', '--rules', 'r.yml'], 'node dist/cli.js')
    expect(wrong.err).toBe('retrieval-gate: missing --baseline, --candidate\nsee node dist/cli.js gate --help\n')
    const installed = await run(['gate', '--rules', 'r.yml'], 'retrieval-gate')
    expect(installed.err).toContain('see retrieval-gate gate --help')
  })

  it('no message in src/ offers npx or the registry install as a way to run a command today', () => {
    const offenders: string[] = []
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (p.endsWith('.ts') && /npx retrieval-gate [a-z]+|without installing/.test(readFileSync(p, 'utf8')))
          offenders.push(p)
      }
    }
    walk(join(process.cwd(), 'src'))
    expect(offenders).toEqual([])
  })
})

describe('the README opens with the smallest workflow', () => {
  it('its first `uses:` of the action and the inputs most workflows set come in its first 60 lines', () => {
    const lines = readFileSync('README.md', 'utf8').split('\n')
    const uses = lines.findIndex((l) => /^\s+- uses: retrieval-gate\/retrieval-gate@/.test(l))
    expect(uses).toBeGreaterThanOrEqual(0)
    expect(uses).toBeLessThan(60)
    const table = lines.findIndex((l) => l.startsWith('| Input |'))
    expect(table).toBeGreaterThan(uses)
    const inputs = lines.slice(table, 60).join('\n')
    for (const input of ['rules', 'baseline', 'candidate']) expect(inputs).toContain(`\`${input}\``)
  })
})
