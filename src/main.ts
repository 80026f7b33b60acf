import * as core from '@actions/core'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isInputError } from './errors.js'
import { runGate } from './gate.js'
import { readRules, readSides } from './load.js'
import { toJsonReport } from './report/json.js'
import { toMarkdown } from './report/markdown.js'

/** Largest job summary GitHub accepts is 1 MiB; stay well under it. */
const SUMMARY_LIMIT = 1000 * 1024

/**
 * The action: reads inputs, runs the gate, writes the report files and the job summary, sets the outputs,
 * and fails the step when the verdict is fail. Unusable input fails the step with the file and line, and
 * no stack trace.
 */
export async function run(): Promise<void> {
  try {
    const rulesFile = core.getInput('rules', { required: true })
    const baselineFile = core.getInput('baseline', { required: true })
    const candidateFile = core.getInput('candidate', { required: true })
    const reportDir = core.getInput('report-dir') || 'retrieval-gate-report'
    const rules = await readRules(rulesFile)
    const { baseline, candidate } = await readSides(rules, baselineFile, candidateFile)
    const result = runGate(rules, baseline, candidate)
    const markdown = toMarkdown(result)
    await mkdir(reportDir, { recursive: true })
    const jsonPath = path.join(reportDir, 'report.json')
    const markdownPath = path.join(reportDir, 'report.md')
    await writeFile(jsonPath, toJsonReport(result))
    await writeFile(markdownPath, markdown)
    core.setOutput('verdict', result.decision.verdict)
    core.setOutput('report-json', jsonPath)
    core.setOutput('report-markdown', markdownPath)
    try {
      const summary = markdown.length > SUMMARY_LIMIT ? markdown.slice(0, SUMMARY_LIMIT) + '\n\n_(cut: the full report is in the report-markdown file)_\n' : markdown
      await core.summary.addRaw(summary).write()
    } catch (error) {
      core.warning(`could not write the job summary: ${(error as Error).message}`)
    }
    if (result.decision.verdict === 'fail') {
      core.setFailed(`retrieval-gate: fail, decided by "${result.decision.decidedBy?.rule.name}"`)
    } else {
      core.info('retrieval-gate: pass')
    }
  } catch (error) {
    if (isInputError(error)) core.setFailed(`retrieval-gate: ${error.message}`)
    else core.setFailed(`retrieval-gate: internal error: ${(error as Error)?.stack ?? String(error)}`)
  }
}
