/**
 * The one golden-file mechanism: every report the tests pin byte for byte is a file in __tests__/golden/, compared
 * by {@link expectGolden} and, after an intended change, rewritten by the same call under `UPDATE_GOLDEN=1`
 *   UPDATE_GOLDEN=1 npm test -- golden
 * (then review the diff of __tests__/golden/ like code). Two suites fill it: report/golden.test.ts renders the
 * example results of report/scenarios.ts in memory (Markdown, text, regressions.jsonl); property/golden.test.ts
 * runs the whole CLI on the examples (JSON, Markdown, exit code), and golden-environments.slow.test.ts checks
 * the same files from other processes, time zones, locales and Node 24 without ever writing them.
 */
import { expect } from '@jest/globals'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export const GOLDEN_DIR = path.join(import.meta.dirname, 'golden')

/** True when this run rewrites the golden files instead of comparing (UPDATE_GOLDEN=1). */
export const updatingGolden = process.env.UPDATE_GOLDEN === '1'

/** The committed golden file `name` (in {@link GOLDEN_DIR}). */
export function readGolden(name: string): string {
  return readFileSync(path.join(GOLDEN_DIR, name), 'utf8')
}

/**
 * `actual` equals the committed golden file `name` byte for byte; under UPDATE_GOLDEN=1 the file is written first.
 * A missing file fails (it is never created by a plain test run), naming the command that writes it.
 */
export function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name)
  if (updatingGolden) {
    mkdirSync(GOLDEN_DIR, { recursive: true })
    writeFileSync(file, actual)
  }
  if (!existsSync(file))
    throw new Error(
      `${path.relative(process.cwd(), file)} does not exist: write it with UPDATE_GOLDEN=1 npm test -- golden, and review it`
    )
  expect(actual).toBe(readFileSync(file, 'utf8'))
}
