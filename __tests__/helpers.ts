import { InputError } from '../src/errors.js'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { main } from '../src/commands/cli-main.js'
import { cliInputSource } from '../src/commands/cli-source.js'
import type { Rules } from '../src/config/types.js'
import type { GateResult } from '../src/decide/result.js'
import { runGate, sidesInputs, type GateOptions } from '../src/gate.js'
import { coreInputs, loadGateInputs, type LoadedInputs } from '../src/load.js'
import type { InputSpec } from '../src/capabilities/contract.js'
import { activeCapabilities } from '../src/capabilities/registry.js'
import { jsonReportChunks } from '../src/report/json.js'
import { sideFromRows, type SideRows } from '../src/model/rows.js'

/** A fresh temporary folder for one test's files. */
export function tempDir(prefix = 'rg-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix))
}

/** Writes files (name -> content) into a new temp folder and returns name -> full path. */
export function writeFiles(files: Record<string, string | Buffer>): Record<string, string> {
  const dir = tempDir()
  const out: Record<string, string> = {}
  for (const [name, content] of Object.entries(files)) {
    const p = path.join(dir, name)
    writeFileSync(p, content)
    out[name] = p
  }
  return out
}

/** Runs the CLI in-process and captures its exit code, stdout and stderr. */
export async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main(
    args,
    (t) => {
      stdout += t
    },
    (t) => {
      stderr += t
    }
  )
  return { code, stdout, stderr }
}

/** One JSON line per row. */
export function jsonl(rows: Array<Record<string, unknown>>): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
}

/**
 * A report without the formats its inputs were read as (the JSON report's `inputs.formats`): what the same data in
 * two formats must agree on byte for byte. Markdown and text reports do not name the format and pass unchanged.
 */
export function withoutInputFormats(report: string): string {
  const masked = report.replace(/,\n {4}"formats": \{\n[\s\S]*?\n {4}\}/, '')
  if (report.trimStart().startsWith('{') && masked === report) throw new Error('a JSON report without inputs.formats')
  return masked
}

/** True when a message looks like a stack trace (which no refusal may print). */
export function hasStackTrace(text: string): boolean {
  return /\n\s+at .+\(.+:\d+:\d+\)/.test(text) || /\n\s+at file:/.test(text)
}

/** The InputError that `run` throws (sync or async); fails the test when it returns or throws anything else. */
export async function refusal(run: () => unknown): Promise<InputError> {
  try {
    await run()
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

/**
 * Reads both sides (and every capability's inputs) the way the CLI does: files as named, given files from
 * `given` (option name -> file or files; baseline and candidate are required).
 */
export async function loadFiles(
  rules: Rules,
  given: Record<string, string | string[] | undefined>
): Promise<LoadedInputs> {
  return loadGateInputs(rules, cliInputSource({ given, rulesFile: rules.source.file }))
}

/**
 * Every exam input the rules declare (the core's and each active capability's), in the order they are fetched:
 * what a pull request's run reads at the trusted source (docs/trust.md).
 */
export function examInputs(rules: Rules): InputSpec[] {
  const all = [
    ...coreInputs(rules),
    ...activeCapabilities(rules).flatMap(({ capability, config }) => capability.inputs(config, rules))
  ]
  return all.filter((spec) => spec.role === 'exam')
}

/** The gate on two sides in hand (see sidesInputs), with any evidence the capabilities would have read. */
export function gateSides(
  rules: Rules,
  baseline: SideRows,
  candidate: SideRows,
  extra: Parameters<typeof sidesInputs>[3] = {},
  options: GateOptions = {}
): GateResult {
  return runGate(sidesInputs(rules, baseline, candidate, extra), options)
}

/** The JSON report as one string: src/report/json.ts's chunks joined (the CLI writes them one by one). */
export function toJsonReport(result: GateResult): string {
  return [...jsonReportChunks(result)].join('')
}

/** One side of one metric, query q<i> holding values[i] (the shape most gate tests start from). */
export function metricSide(file: string, metric: string, values: readonly number[]): SideRows {
  return sideFromRows(
    file,
    values.map((v, i) => ({ id: `q${i}`, line: i + 1, values: new Map([[metric, v]]), attrs: new Map() }))
  )
}
