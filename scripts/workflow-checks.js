#!/usr/bin/env node
/**
 * Three checks actionlint does not make, on the workflows (.github/workflows, docs/workflows) and on the YAML blocks
 * of README.md and docs/*.md, where users copy workflows from:
 * - the `with:` keys of every step that uses this action (`uses: ./` or `uses: retrieval-gate/retrieval-gate@...`)
 *   are inputs action.yml declares. actionlint knows the inputs of well-known actions only, so a misspelt input
 *   of ours (`candidates:` for `candidate:`) passed the lint, and GitHub only warns at run time while the step
 *   runs without it;
 * - no `${{ github.event.* }}` expression is written into a `run:` script: it is pasted into the script's text
 *   before the shell reads it, so the workflows pass it through `env:` and the script reads `"$NAME"` (actionlint
 *   flags only the fields it knows to be attacker-controlled, such as a PR title; a copied example should not
 *   teach the pattern at all);
 * - a workflow run on `push` that runs this action uploads its report for history: a later step of the same job
 *   uses actions/upload-artifact with `name: ${{ steps.ID.outputs.history-artifact }}` and
 *   `path: ${{ steps.ID.outputs.report-json }}` (the action uploads nothing itself, so without that step pull
 *   requests with `history:` find no past runs). Checked on what users copy (docs/workflows, the Markdown), not on
 *   this repository's own .github/workflows, whose push runs gate the committed example and record nothing.
 *
 *   node scripts/workflow-checks.js                 # every workflow and Markdown YAML block; exit 1 on a finding
 *   node scripts/workflow-checks.js FILE...         # these files (.yml / .yaml, or .md for their yaml blocks)
 *
 * scripts/lint-workflows.js (`npm run lint:workflows`) runs these checks too.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')

/** A step uses this action: the local checkout (`./`) or the published repository at any ref. */
const OURS = /^(?:\.\/?|retrieval-gate\/retrieval-gate@.+)$/

/** The input names action.yml declares. */
export function actionInputs(actionYml) {
  const doc = parseDocument(actionYml)
  const inputs = doc.get('inputs')
  if (!isMap(inputs)) throw new Error('action.yml has no inputs mapping')
  return new Set(inputs.items.map((pair) => String(pair.key.value)))
}

/** The ```yaml blocks of a Markdown text, each with the line (1-based) of its first line of YAML. */
export function yamlBlocks(markdown) {
  const blocks = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (!/^ {0,3}```ya?ml\s*$/.test(lines[i])) continue
    const start = i + 1
    let end = start
    while (end < lines.length && !/^ {0,3}```\s*$/.test(lines[end])) end++
    blocks.push({ text: lines.slice(start, end).join('\n'), line: start + 1 })
    i = end
  }
  return blocks
}

/** The closest input to a misspelt one (edit distance at most 3), for the message. */
function closest(name, inputs) {
  let best
  let bestDistance = 4
  for (const input of inputs) {
    const d = distance(name, input)
    if (d < bestDistance) {
      best = input
      bestDistance = d
    }
  }
  return best
}

function distance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = above
    }
  }
  return row[b.length]
}

/**
 * The findings of one YAML text: `file:line:column: ...` for each `with:` key of a step using this action that
 * action.yml does not declare (and the other two checks). `firstLine` is the line of the text's first line in `file`
 * (a Markdown block); `history: false` skips the history-upload check (this repository's own workflows).
 * Text that is not YAML, or has no steps, has no findings (a Markdown block may be a rules file).
 */
export function checkWithKeys(text, file, inputs, firstLine = 1, history = true) {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter })
  if (doc.errors.length > 0) return []
  const findings = []
  const visitSteps = (steps) => {
    if (!isSeq(steps)) return
    for (const step of steps.items) {
      if (!isMap(step)) continue
      const run = step.get('run', true)
      if (isScalar(run) && typeof run.value === 'string') {
        for (const m of run.value.matchAll(/\$\{\{\s*(github\.event\.[\w.-]+)\s*\}\}/g)) {
          const at = lineCounter.linePos(run.range?.[0] ?? 0)
          findings.push(
            `${file}:${at.line + firstLine - 1}:${at.col}: \${{ ${m[1]} }} is written into a run: script; pass it through env: (e.g. BASE_SHA: \${{ ${m[1]} }}) and read "$BASE_SHA"`
          )
        }
      }
      const uses = step.get('uses')
      if (typeof uses !== 'string' || !OURS.test(uses.trim())) continue
      const withMap = step.get('with', true)
      if (!isMap(withMap)) continue
      for (const pair of withMap.items) {
        if (!isScalar(pair.key)) continue
        const key = String(pair.key.value)
        if (inputs.has(key)) continue
        const at = lineCounter.linePos(pair.key.range?.[0] ?? 0)
        const near = closest(key, inputs)
        findings.push(
          `${file}:${at.line + firstLine - 1}:${at.col}: input "${key}" is not an input of the retrieval-gate action (action.yml)${near === undefined ? '' : `; did you mean "${near}"?`}`
        )
      }
    }
  }
  const jobs = doc.get('jobs')
  if (isMap(jobs)) for (const job of jobs.items) if (isMap(job.value)) visitSteps(job.value.get('steps', true))
  if (history && isMap(jobs) && onPush(doc.toJS()?.on)) {
    for (const job of jobs.items) {
      if (!isMap(job.value)) continue
      for (const gate of gatesWithoutHistoryUpload(job.value.get('steps', true))) {
        const at = lineCounter.linePos(gate.range?.[0] ?? 0)
        const id = gate.get('id') ?? 'gate'
        findings.push(
          `${file}:${at.line + firstLine - 1}:${at.col}: this push workflow runs the gate without uploading its report for history; add a later step uses: actions/upload-artifact with name: \${{ steps.${id}.outputs.history-artifact }} and path: \${{ steps.${id}.outputs.report-json }}${gate.get('id') === undefined ? ` (and id: ${id} on the gate step)` : ''}`
        )
      }
    }
  }
  // A snippet of steps only (a Markdown block that shows a job's steps without the workflow around them).
  if (!isMap(jobs)) visitSteps(doc.get('steps', true) ?? (isSeq(doc.contents) ? doc.contents : undefined))
  return findings
}

/** Whether a workflow's `on:` (a name, a list or a mapping) includes push. */
function onPush(on) {
  if (typeof on === 'string') return on === 'push'
  if (Array.isArray(on)) return on.includes('push')
  return on !== null && typeof on === 'object' && 'push' in on
}

/** The steps using this action that no later actions/upload-artifact step uploads the report of (by its id). */
function gatesWithoutHistoryUpload(steps) {
  if (!isSeq(steps)) return []
  const items = steps.items.filter(isMap)
  const missing = []
  items.forEach((step, i) => {
    const uses = step.get('uses')
    if (typeof uses !== 'string' || !OURS.test(uses.trim())) return
    const id = step.get('id')
    const uploads = items.slice(i + 1).some((later) => {
      const laterUses = later.get('uses')
      const w = later.get('with')
      if (typeof laterUses !== 'string' || !laterUses.startsWith('actions/upload-artifact@') || !isMap(w)) return false
      const ref = (key, output) =>
        new RegExp(`\\$\\{\\{\\s*steps\\.${id}\\.outputs\\.${output}\\s*\\}\\}`).test(String(w.get(key) ?? ''))
      return typeof id === 'string' && ref('name', 'history-artifact') && ref('path', 'report-json')
    })
    if (!uploads) missing.push(step)
  })
  return missing
}

/** Every file the check reads by default: the two workflow folders and the Markdown that shows workflows. */
export function defaultFiles() {
  const files = []
  for (const folder of ['.github/workflows', 'docs/workflows']) {
    for (const f of readdirSync(path.join(root, folder)).sort())
      if (/\.ya?ml$/.test(f)) files.push(path.join(folder, f))
  }
  files.push('README.md')
  for (const f of readdirSync(path.join(root, 'docs')).sort()) if (f.endsWith('.md')) files.push(path.join('docs', f))
  return files
}

/** The findings of `files` (paths relative to the repository root, or absolute). */
export function checkFiles(files, inputs = actionInputs(readFileSync(path.join(root, 'action.yml'), 'utf8'))) {
  const findings = []
  let blocks = 0
  for (const file of files) {
    const text = readFileSync(path.resolve(root, file), 'utf8')
    const shown = path.relative(root, path.resolve(root, file)) || file
    if (file.endsWith('.md')) {
      for (const b of yamlBlocks(text)) {
        blocks++
        findings.push(...checkWithKeys(b.text, shown, inputs, b.line))
      }
    } else {
      blocks++
      findings.push(...checkWithKeys(text, shown, inputs, 1, !shown.startsWith('.github/')))
    }
  }
  return { findings, blocks }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const { findings, blocks } = checkFiles(args.length > 0 ? args : defaultFiles())
  for (const line of findings) process.stdout.write(`${line}\n`)
  const summary = `action inputs (action.yml) and run: expressions in ${blocks} workflow(s) and YAML block(s): ${findings.length} finding(s)`
  process.stderr.write(`${summary}\n`)
  process.exit(findings.length > 0 ? 1 : 0)
}
