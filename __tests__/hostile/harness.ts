/**
 * The hostile-input suite is a table: each case is a set of files, a command line and what must come back.
 * A refusal must exit 2, print nothing on stdout, name the place (file:line, a rule key or a query id) and
 * what is wrong, and print no stack trace; an accepted input must exit with the verdict's code and may
 * check the JSON report. Paths in stderr are shown relative to the case's temp folder, so `where` reads
 * like `b.jsonl:3`.
 */
import { expect } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cli, hasStackTrace, writeFiles } from '../helpers.js'

export interface CliResult {
  code: number
  stdout: string
  /** stderr with the temp folder removed from paths. */
  stderr: string
  /** The parsed JSON report, when the arguments wrote one to {report.json}. */
  report: Record<string, any> | undefined
}

export interface HostileCase {
  name: string
  /** Files by name, written into a fresh temp folder. */
  files: Record<string, string | Buffer>
  /** CLI arguments; `{name}` is replaced by the path of that file. Default: {@link gateArgs}(). */
  args?: string[]
  code: 0 | 1 | 2
  /** Refusals: text that must appear in stderr, naming the place (`b.jsonl:3`, `checks[0].metric`, `"q7"`). */
  where?: string
  /** Refusals: what is wrong, in words. */
  message?: RegExp
  /** Further checks (accepted inputs: the JSON report). */
  check?: (r: CliResult) => void
}

/** `gate --rules {rules.yml} --baseline {b} --candidate {c} --json {report.json}`. */
export function gateArgs(b = 'b.jsonl', c = 'c.jsonl', rules = 'rules.yml'): string[] {
  return ['gate', '--rules', `{${rules}}`, '--baseline', `{${b}}`, '--candidate', `{${c}}`, '--json', '{report.json}']
}

/** Runs one case through the in-process CLI and asserts what every case must. */
export async function runCase(c: HostileCase): Promise<CliResult> {
  const files = writeFiles(c.files)
  const dir = path.dirname(Object.values(files)[0])
  const reportPath = path.join(dir, 'report.json')
  const args = (c.args ?? gateArgs()).map((a) =>
    a.replace(/\{([^}]+)\}/g, (_, name: string) => files[name] ?? path.join(dir, name))
  )
  const r = await cli(args)
  const stderr = r.stderr.split(dir + path.sep).join('')
  let report: Record<string, any> | undefined
  if (args.includes(reportPath) && r.code !== 2) report = JSON.parse(readFileSync(reportPath, 'utf8'))
  const result: CliResult = { code: r.code, stdout: r.stdout, stderr, report }
  try {
    expect(r.code).toBe(c.code)
  } catch (error) {
    throw new Error(`${c.name}: expected exit ${c.code}, got ${r.code}\nstderr: ${stderr.slice(0, 2000)}`, {
      cause: error
    })
  }
  expect(hasStackTrace(r.stderr)).toBe(false)
  expect(stderr).not.toMatch(/internal error/)
  if (c.code === 2) {
    expect(r.stdout).toBe('')
    // The tool's name, or (validate, which lists every violation) the place of the first one.
    expect(stderr).toMatch(/^(retrieval-gate: |[^\s:]+(:\d+)?: )/)
    if (c.where !== undefined) expect(stderr).toContain(c.where)
    if (c.message !== undefined) expect(stderr).toMatch(c.message)
    // Every refusal says what to do, after the place and the problem.
    expect(stderr.trim().length).toBeGreaterThan(30)
  }
  c.check?.(result)
  return result
}

/**
 * Rules over one metric `m` in [0, 1] (and binary `hit`), min_per_slice 1, so tiny files give a verdict. A handful of
 * queries (often identical on both sides) cannot support a statistical pass (docs/statistics.md); on_inconclusive and
 * on_too_few pass let an accepted input exit 0: these cases are about reading the input, not about the interval.
 */
export const RULES = `version: 1
on_inconclusive: pass
on_too_few: pass
metrics:
  m: { better: higher, range: [0, 1] }
queries: { min_per_slice: 1 }
statistics: { resamples: 200, seed: 3 }
checks:
  - name: m holds
    metric: m
    non_inferior: { margin: 0.1 }
`

/** N rows q1..qN with m = value, as JSON Lines. */
export function rowsJsonl(n = 3, value = 0.5, extra: Record<string, unknown> = {}): string {
  return (
    Array.from({ length: n }, (_, i) => JSON.stringify({ query_id: `q${i + 1}`, m: value, ...extra })).join('\n') + '\n'
  )
}

/** N rows q1..qN with m = value, as CSV with a header. */
export function rowsCsv(n = 3, value = '0.5'): string {
  return 'query_id,m\n' + Array.from({ length: n }, (_, i) => `q${i + 1},${value}`).join('\n') + '\n'
}

/** JSON Lines with the given ids, every m = value. */
export function idsJsonl(ids: string[], value = 0.5): string {
  return ids.map((id) => JSON.stringify({ query_id: id, m: value })).join('\n') + '\n'
}

/** An accepted case's check: the report paired exactly `n` queries. */
export function paired(n: number): (r: CliResult) => void {
  return (r) => {
    expect(r.report?.coverage?.paired).toBe(n)
  }
}

/** Nothing reached Object.prototype: keys like `__proto__` were read as plain data. */
export function expectNoPollution(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(Object.keys(Object.prototype)).toEqual([])
  expect(({} as Record<string, unknown>).m).toBeUndefined()
}
