/**
 * The README is the front door and docs/ holds the reference (issue 27): every relative link in README.md,
 * docs/*.md and the measurement logs the docs link (bench/results/*.md) points at a file that exists and, with a #fragment into a Markdown file, at one of its headings
 * (GitHub's anchor: lower case, punctuation but - and _ removed, spaces as -). Links inside code blocks are text.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const pages = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(path.join(root, 'bench/results'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `bench/results/${f}`)
]

/** GitHub's heading anchors of a Markdown file. */
function anchors(file: string): Set<string> {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '')
  const out = new Set<string>()
  for (const m of text.matchAll(/^#+ (.*)$/gm))
    out.add(
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, '')
        .replace(/ /g, '-')
    )
  return out
}

/** Every relative link of a page that does not resolve, as "page: target (why)". */
function broken(page: string, written = readFileSync(path.join(root, page), 'utf8')): string[] {
  const text = written.replace(/```[\s\S]*?```/g, '')
  const found: string[] = []
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]
    if (/^[a-z]+:/.test(target)) continue
    const [file, fragment] = target.split('#')
    const resolved = file === '' ? page : path.normalize(path.join(path.dirname(page), file))
    if (!existsSync(path.join(root, resolved))) found.push(`${page}: ${target} (no such file)`)
    else if (fragment !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(fragment))
      found.push(`${page}: ${target} (no such heading)`)
  }
  return found
}

describe('links in the README and docs', () => {
  it('resolve to files and headings that exist', () => {
    expect(pages.length).toBeGreaterThan(10)
    expect(pages.flatMap((p) => broken(p))).toEqual([])
  })

  it('a link to a missing file or heading is found, one inside a code block is not (the check can fail)', () => {
    const page =
      'See [trust](docs/trust.md#threat-model-what-a-pull-request-can-and-cannot-decide), [gone](docs/gone.md), [nowhere](docs/trust.md#no-such-heading).\n```\n[code](docs/also-gone.md)\n```\n'
    expect(broken('README.md', page)).toEqual([
      'README.md: docs/gone.md (no such file)',
      'README.md: docs/trust.md#no-such-heading (no such heading)'
    ])
  })
})
