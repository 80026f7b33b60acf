/**
 * The npm package is the command line: `npm pack` ships the bundle (dist/cli.js, self-contained) and the published
 * schemas, nothing else, and installing the tarball globally with no network and an empty npm cache gives a working
 * `retrieval-gate` in seconds (no dependency to fetch: any would fail with ENOTCACHED). Slow (`npm run test:slow`):
 * it starts npm three times. It packs the committed dist/cli.js, which CI checks is what the sources build to.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..')
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }

/**
 * Runs `command` in the repository root with an npm that reads no user or global config, at npm's default log level
 * (`npm run -s` exports npm_config_loglevel=silent to its children, which would hide "added 1 package").
 */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    timeout: 120000,
    env: { ...process.env, npm_config_loglevel: 'notice', ...env }
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error }
}

describe('npm pack, then npm install -g of the tarball, offline', () => {
  it('ships only the bundle and the schemas, installs one package with nothing to fetch, and runs a gate', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'rg-install-'))
    try {
      // An empty cache and --offline: a dependency the tarball asked for could not be fetched from anywhere.
      const npmEnv = {
        npm_config_cache: path.join(tmp, 'cache'),
        npm_config_userconfig: path.join(tmp, 'npmrc'),
        npm_config_update_notifier: 'false'
      }
      const pack = run('npm', ['pack', '--json', '--pack-destination', tmp], npmEnv)
      expect(pack.stderr).not.toMatch(/ERR!/)
      expect(pack.status).toBe(0)
      const [packed] = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }]
      const files = packed.files.map((f) => f.path).sort()
      expect(files).toEqual([
        'LICENSE',
        'README.md',
        'dist/cli.js',
        'package.json',
        'rules/dataset.schema.json',
        'rules/presets/default.yml',
        'rules/schema.json'
      ])

      const prefix = path.join(tmp, 'prefix')
      const started = Date.now()
      const install = run(
        'npm',
        ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', path.join(tmp, packed.filename)],
        npmEnv
      )
      const seconds = (Date.now() - started) / 1000
      expect(install.stderr).not.toMatch(/ERR!|EBADENGINE/)
      expect(install.status).toBe(0)
      expect(install.stdout).toMatch(/added 1 package\b/)
      expect(seconds).toBeLessThan(30)

      const bin = path.join(prefix, 'bin', 'retrieval-gate')
      const version = run(bin, ['--version'])
      expect(version.stdout).toBe(`${pkg.version}\n`)
      expect(version.status).toBe(0)

      // The example is built to fail (README, "Quick start"): exit 1 with a JSON verdict, not an error.
      const rows = run(bin, [
        'gate',
        '--rules',
        'examples/rules.yml',
        '--baseline',
        'examples/baseline.jsonl',
        '--candidate',
        'examples/candidate.jsonl',
        '--format',
        'json'
      ])
      expect(rows.stderr).toBe('')
      expect(rows.status).toBe(1)
      expect((JSON.parse(rows.stdout) as { verdict: string }).verdict).toBe('fail')
      // Runs plus judgments: the measures are computed inside the bundle.
      const runs = run(bin, [
        'gate',
        '--rules',
        'examples/runs/rules.yml',
        '--baseline',
        'examples/runs/baseline.jsonl',
        '--candidate',
        'examples/runs/candidate.jsonl',
        '--format',
        'json'
      ])
      expect(runs.stderr).toBe('')
      expect([0, 1]).toContain(runs.status)
      expect((JSON.parse(runs.stdout) as { comparisons: unknown[] }).comparisons.length).toBeGreaterThan(0)
      // The README's quick start: TREC runs sliced by a queries file, exactly as the README writes the command.
      const trec = run(bin, [
        'gate',
        '--rules',
        'examples/trec/rules.yml',
        '--baseline',
        'examples/trec/baseline.run',
        '--candidate',
        'examples/trec/candidate.run'
      ])
      expect(trec.stderr).toBe('')
      expect(trec.status).toBe(1)
      expect(trec.stdout).toContain('decided by check 2 “new users are protected”')
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  }, 240000)
})
