#!/usr/bin/env node
/**
 * The license inventory of what ships: every package whose code rollup bundles into dist/index.js and dist/cli.js
 * (the module ids under node_modules), with its version and license from its own package.json, written to
 * dist/licenses.txt. `npm run bundle` writes it (the rollup plugin below), so it is rebuilt with dist/ and CI's dist
 * check covers it; a license outside {@link ALLOWED} fails the bundle.
 *
 *   npm run licenses            # bundles in memory and checks dist/licenses.txt lists exactly what ships; exit 1 if not
 *   npm run licenses -- --write # the same, writing dist/licenses.txt
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT = path.join(root, 'dist', 'licenses.txt')

/** Licenses a shipped package may have: permissive, no copyleft, no notice beyond keeping this file. */
export const ALLOWED = new Set(['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0', '0BSD', 'BlueOak-1.0.0'])

/** The package folder a module id lies in (the last node_modules/NAME or node_modules/@SCOPE/NAME), else undefined. */
export function packageDir(id) {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '')
  const m = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(clean)
  return m ? m[1] : undefined
}

/** name, version and license of each package the module ids lie in, sorted by name then version. */
export function inventory(moduleIds) {
  const dirs = new Set()
  for (const id of moduleIds) {
    const dir = packageDir(id)
    if (dir !== undefined) dirs.add(dir)
  }
  const seen = new Map()
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
    const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'UNKNOWN')
    seen.set(`${pkg.name}@${pkg.version}`, { name: pkg.name, version: pkg.version, license })
  }
  return [...seen.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1
  )
}

/** The problems of an inventory: each package whose license is not allowed (an SPDX `A OR B` passes if one does). */
export function licenseProblems(entries) {
  return entries
    .filter(
      (e) =>
        !e.license
          .replace(/[()]/g, '')
          .split(/\s+OR\s+/)
          .some((l) => ALLOWED.has(l.trim()))
    )
    .map((e) => `${e.name}@${e.version} has license ${e.license}, not one of ${[...ALLOWED].join(', ')}`)
}

/** dist/licenses.txt: one line per package, with the bundles it ships in. */
export function renderInventory(byBundle) {
  const rows = new Map()
  for (const [bundle, entries] of [...byBundle].sort()) {
    for (const e of entries) {
      const key = `${e.name}@${e.version}`
      const row = rows.get(key) ?? { ...e, bundles: [] }
      row.bundles.push(path.basename(bundle))
      rows.set(key, row)
    }
  }
  const sorted = [...rows.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1
  )
  const lines = sorted.map((r) => `${r.name}@${r.version}\t${r.license}\t${r.bundles.join(' ')}`)
  return (
    '# Third-party packages bundled into dist/ (scripts/licenses.js, written by npm run bundle).\n' +
    '# package@version<TAB>license<TAB>bundles\n' +
    lines.join('\n') +
    '\n'
  )
}

/** What each bundle holds, shared by the two rollup builds of one `npm run bundle` (index.js, then cli.js). */
const shipped = new Map()

/**
 * The rollup plugin: records the packages of bundle `file` and rewrites dist/licenses.txt with every bundle built
 * so far (after both builds it lists both); a license outside the allow-list fails the build.
 */
export function licenseInventory(file) {
  return {
    name: 'license-inventory',
    generateBundle(_options, bundle) {
      const ids = Object.values(bundle).flatMap((chunk) => (chunk.type === 'chunk' ? Object.keys(chunk.modules) : []))
      const entries = inventory(ids)
      const problems = licenseProblems(entries)
      if (problems.length > 0) this.error(`license inventory of ${file}: ${problems.join('; ')}`)
      shipped.set(file, entries)
    },
    writeBundle() {
      writeFileSync(OUT, renderInventory(shipped))
    }
  }
}

/** Bundles both entry points in memory (nothing written) and returns the inventory text they ship. */
async function currentInventory() {
  const { rollup } = await import('rollup')
  const { default: configs } = await import(path.join(root, 'rollup.config.js'))
  const byBundle = new Map()
  for (const config of configs) {
    const build = await rollup({ ...config, plugins: config.plugins.filter((p) => p.name !== 'license-inventory') })
    const { output } = await build.generate(config.output)
    await build.close()
    byBundle.set(
      config.output.file,
      inventory(output.flatMap((c) => (c.type === 'chunk' ? Object.keys(c.modules) : [])))
    )
  }
  return renderInventory(byBundle)
}

/** The command line: check (or --write) dist/licenses.txt against what the bundles ship. */
async function main() {
  process.chdir(root)
  const text = await currentInventory()
  const problems = licenseProblems(
    text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const [id, license] = l.split('\t')
        return { name: id.slice(0, id.lastIndexOf('@')), version: id.slice(id.lastIndexOf('@') + 1), license }
      })
  )
  if (process.argv.includes('--write')) writeFileSync(OUT, text)
  let committed = ''
  try {
    committed = readFileSync(OUT, 'utf8')
  } catch {
    committed = ''
  }
  const missing = text.split('\n').filter((l) => l && !l.startsWith('#') && !committed.split('\n').includes(l))
  const extra = committed.split('\n').filter((l) => l && !l.startsWith('#') && !text.split('\n').includes(l))
  for (const p of problems) process.stderr.write(`licenses: ${p}\n`)
  for (const l of missing) process.stderr.write(`licenses: dist/licenses.txt lacks ${l.split('\t')[0]} (it ships)\n`)
  for (const l of extra)
    process.stderr.write(`licenses: dist/licenses.txt lists ${l.split('\t')[0]}, which does not ship\n`)
  const n = text.split('\n').filter((l) => l && !l.startsWith('#')).length
  if (problems.length + missing.length + extra.length > 0) {
    process.stderr.write('licenses: run npm run bundle (or npm run licenses -- --write)\n')
    process.exit(1)
  }
  process.stdout.write(
    `licenses: ${n} packages ship in dist/, each listed in dist/licenses.txt with an allowed license\n`
  )
}

// not a top-level await: rollup.config.js imports this module while main() imports rollup.config.js
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`licenses: ${error.message}\n`)
    process.exit(2)
  })
}
