/**
 * Issue 34 item 18: what the docs say about the code is what the code is. Every source, script or test path a page
 * names exists (docs/scale.md named `__tests__/warehouse/duckdb.test.ts`, which never did); the warehouse tolerance
 * paragraph quotes the bound its test asserts; docs/cli.md quotes no size for a bundle that changes with every
 * build (it said about 1.6 MB); checking one's own workflow with `npm run lint:workflows -- FILE` is documented,
 * and the script takes files that way.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8')
const pages = [
  'README.md',
  ...readdirSync(path.join(root, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))
]

describe('the docs name what exists', () => {
  it('every path under __tests__/, scripts/, src/, bench/, rules/ or examples/ a page names in code exists', () => {
    const missing: string[] = []
    for (const page of pages)
      for (const m of read(page).matchAll(/`((?:__tests__|scripts|src|bench|rules|examples)\/[^`\s]+)`/g)) {
        const named = m[1].replace(/[:#].*$/, '').replace(/[.,;)]+$/, '')
        if (named.includes('*')) continue // a pattern, not a file
        if (!existsSync(path.join(root, named))) missing.push(`${page}: ${named}`)
      }
    expect(missing).toEqual([])
  })

  it("docs/scale.md quotes the bound the warehouse test asserts, and names that test's file", () => {
    const test = read('__tests__/warehouse/duckdb.slow.test.ts')
    const asserted = /expect\(worst\)\.toBeLessThan\(([\d.e-]+)\)/.exec(test)?.[1]
    expect(asserted).toBeDefined()
    const doc = read('docs/scale.md')
    expect(doc).toContain('`__tests__/warehouse/duckdb.slow.test.ts`')
    expect(doc).toContain(`(the test asserts < ${asserted})`)
    const n = /^const N = (\d+)$/m.exec(test)?.[1]
    expect(doc.replace(/\s+/g, ' ')).toContain(`at its ${Number(n).toLocaleString('en-US')} queries`)
  })

  it('docs/cli.md quotes no size for dist/cli.js or dist/index.js (it changes with every build)', () => {
    const doc = read('docs/cli.md')
    expect(doc).not.toMatch(/\d+(?:\.\d+)?\s*(?:MB|MiB|kB|KB)/)
    expect(doc).toContain('ls -l dist/cli.js')
  })

  it('checking your own workflow is documented, in the form npm passes to the script', () => {
    const github = read('docs/github.md')
    expect(github).toContain('npm run lint:workflows -- path/to/your-workflow.yml')
    expect(read('docs/development.md')).toContain('npm run lint:workflows -- FILE')
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> }
    expect(pkg.scripts['lint:workflows']).toBe('node scripts/lint-workflows.js')
    expect(read('scripts/lint-workflows.js')).toContain('node scripts/lint-workflows.js FILE...')
  })
})
