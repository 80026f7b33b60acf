/** The action's run() as the tests drive it against the fake GitHub: one way to run it and read what it wrote. */
import { jest } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { withFakeTime } from './fake-time.js'

type Run = (env: Record<string, string | undefined>, now: () => Date) => Promise<void>

/**
 * Runs the action on process.env at a fixed "now" under fake timers (the throttling plugin spaces comment writes
 * 3 s apart, run after run), with stdout captured. Returns the exit code (reset afterwards) and what was written.
 */
export async function runCaptured(
  run: Run,
  now = new Date('2025-06-10T12:00:00Z')
): Promise<{ code: number; stdout: string[] }> {
  process.exitCode = undefined
  const stdout: string[] = []
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk))
    return true
  })
  try {
    await withFakeTime(() => run(process.env, () => now))
  } finally {
    spy.mockRestore()
  }
  const code = Number(process.exitCode ?? 0)
  process.exitCode = undefined
  return { code, stdout }
}

/** The step outputs written to GITHUB_OUTPUT (`name<<ghadelimiter_…` blocks). */
export async function readOutputs(file: string): Promise<Record<string, string>> {
  const text = await readFile(file, 'utf8')
  const out: Record<string, string> = {}
  for (const m of text.matchAll(/^([\w-]+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm)) out[m[1]] = m[3]
  return out
}
