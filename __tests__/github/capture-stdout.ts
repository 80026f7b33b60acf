import { jest } from '@jest/globals'

/**
 * @actions/artifact logs through @actions/core, whose `info` and `debug` are plain writes to process.stdout
 * (`::debug::Content-Type: ...`, "Downloading artifact '4' from ..."). A test that runs the real client against the
 * fake API captures those writes, so the test output holds only what jest prints; the lines are kept, for a test to
 * look at. Call in beforeAll, restore in afterAll.
 */
export function captureStdout(): { lines: () => string[]; restore: () => void } {
  const written: string[] = []
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
    return true
  })
  return {
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter((l) => l !== ''),
    restore: () => spy.mockRestore()
  }
}
