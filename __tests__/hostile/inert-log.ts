/**
 * What every refusal's stderr must satisfy, whatever the input held (logs.test.ts, logs.slow.test.ts): no line
 * that the GitHub runner would read as a workflow command, no raw control character, no long line, no stack trace.
 */
import { expect } from '@jest/globals'
import { MAX_ERROR_CHARS } from '../../src/util/show.js'
import { hasStackTrace } from '../helpers.js'

/** The longest stderr line a refusal may print: the tool's name plus one capped refusal. */
export const MAX_LINE = MAX_ERROR_CHARS + 100

/** What every refusal's stderr must satisfy, whatever the input held. */
export function expectInertLog(stderr: string): void {
  for (const line of stderr.split('\n')) {
    expect(line).not.toMatch(/^\s*::/)
    expect(line).not.toContain('##[')
    expect(line.length).toBeLessThanOrEqual(MAX_LINE)
  }
  // no raw control character other than the line breaks between lines
  expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/)
  expect(hasStackTrace(stderr)).toBe(false)
}
