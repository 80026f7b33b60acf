/**
 * Every third-party action is pinned by its full commit sha, with the version in a comment:
 *   uses: actions/checkout@<40 hex> # v4.2.0
 * A tag (`@v4`) or a branch can be moved to other code by whoever controls the action's repository, and that code
 * runs with the workflow's token; a commit sha cannot be moved. The comment says which release the sha is, for
 * readers and for Dependabot (.github/dependabot.yml), which updates sha and comment together.
 * Checked wherever a `uses:` is written: this repository's workflows, the copyable example workflows, action.yml,
 * and the README and docs/*.md snippets users paste. Not checked: local actions (`./`), and retrieval-gate's own
 * action in the examples, whose version users choose as docs/releasing.md explains (`@v1`, `@v1.2.3` or a sha).
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')
const FIRST_PARTY = 'retrieval-gate/retrieval-gate@'

/** Files that may hold a `uses:`: workflows, the action, and the Markdown users copy from. */
function filesToCheck(): string[] {
  const inDir = (dir: string, ext: string[]): string[] =>
    existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir))
          .filter((f) => ext.some((e) => f.endsWith(e)))
          .sort()
          .map((f) => `${dir}/${f}`)
      : []
  return [
    ...inDir('.github/workflows', ['.yml', '.yaml']),
    ...inDir('docs/workflows', ['.yml', '.yaml']),
    'action.yml',
    'README.md',
    ...inDir('docs', ['.md'])
  ]
}

/** A `uses:` key (not the end of another word: `statuses: write` is a permission) and what follows it on the line. */
const USES = /(?<![\w-])uses:\s*['"]?([^\s'"`|]+)['"]?([^\n]*)/g
const SHA = /@[0-9a-f]{40}$/
const VERSION_COMMENT = /^\s*#\s*v\d+(\.\d+)*\b/
const DOCKER_DIGEST = /^docker:\/\/[^@\s]+@sha256:[0-9a-f]{64}$/

/** Every unpinned third-party `uses:` in `text`, as `file:line: uses: ref (why)`. */
export function unpinned(file: string, text: string): string[] {
  const out: string[] = []
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(USES)) {
      const [, ref, rest] = m
      if (ref.startsWith('./') || ref.startsWith(FIRST_PARTY)) continue
      const where = `${file}:${i + 1}: uses: ${ref}`
      if (ref.startsWith('docker://')) {
        if (!DOCKER_DIGEST.test(ref)) out.push(`${where} (a docker image by tag: pin it by @sha256: digest)`)
      } else if (!SHA.test(ref)) out.push(`${where} (a tag or branch: pin it by the release's full commit sha)`)
      else if (!VERSION_COMMENT.test(rest))
        out.push(`${where} (pinned, but no "# vX.Y.Z" comment saying which release)`)
    }
  })
  return out
}

describe('third-party actions are pinned by commit sha', () => {
  it('the check finds tags, branches, short shas and a sha without its version, and accepts the pinned form', () => {
    const sha = 'd632683dd7b4114ad314bca15554477dd762a938'
    const text = [
      '      - uses: actions/checkout@v4',
      '      - uses: actions/setup-node@main',
      '      - uses: actions/cache@d632683', // short sha
      `      - uses: actions/upload-artifact@${sha}`,
      `      - uses: actions/checkout@${sha} # v4.2.0`,
      `        uses: "actions/checkout@${sha}" # v4.2.0`,
      '      - uses: ./',
      '      - uses: retrieval-gate/retrieval-gate@v1',
      '      - uses: docker://alpine:3.20',
      `| \`uses: octo/thing@v2\` | a table cell |`,
      '  statuses: write # a permission whose name ends in "uses", not an action'
    ].join('\n')
    expect(unpinned('w.yml', text)).toEqual([
      "w.yml:1: uses: actions/checkout@v4 (a tag or branch: pin it by the release's full commit sha)",
      "w.yml:2: uses: actions/setup-node@main (a tag or branch: pin it by the release's full commit sha)",
      "w.yml:3: uses: actions/cache@d632683 (a tag or branch: pin it by the release's full commit sha)",
      `w.yml:4: uses: actions/upload-artifact@${sha} (pinned, but no "# vX.Y.Z" comment saying which release)`,
      'w.yml:9: uses: docker://alpine:3.20 (a docker image by tag: pin it by @sha256: digest)',
      "w.yml:10: uses: octo/thing@v2 (a tag or branch: pin it by the release's full commit sha)"
    ])
  })

  it('in the workflows, the example workflows, action.yml, the README and docs', () => {
    const files = filesToCheck()
    expect(files).toEqual(
      expect.arrayContaining([
        '.github/workflows/test.yml',
        'docs/workflows/same-repo.yml',
        'README.md',
        'docs/recipes.md'
      ])
    )
    const found = files.flatMap((f) => unpinned(f, readFileSync(path.join(root, f), 'utf8')))
    expect(found).toEqual([])
  })
})
