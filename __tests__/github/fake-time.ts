/**
 * Runs code that talks to the fake GitHub under jest's fake timers, so that waits take no real time: the octokit
 * throttling plugin spaces writes 1 s apart (comment writes 3 s), and retries wait out `retry-after` seconds. Only
 * setTimeout/setInterval and Date are faked (the throttling plugin schedules by both). The HTTP requests to the
 * fake server on 127.0.0.1 are real I/O, so the fake clock cannot simply jump to the next timer: it moves STEP_MS
 * per real millisecond while the work is pending, fifty times real time. That is fast enough for the waits and
 * slow enough that real I/O adds little fake time: a retry that does not wait shows as a few hundred fake
 * milliseconds, not the 5000 that `retry-after: 5` asks for. The fake time that passed is returned, so a test can
 * assert that a retry really waited what GitHub asked.
 */
import { jest } from '@jest/globals'

/** Fake milliseconds per real millisecond. */
const STEP_MS = 50

/** `work()` under fake timers until it settles; its value (or its rejection) and the fake milliseconds it took. */
export async function withFakeTime<T>(work: () => Promise<T>): Promise<{ value: T; fakeMs: number }> {
  const realSetTimeout = globalThis.setTimeout
  jest.useFakeTimers({
    doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'hrtime', 'performance']
  })
  const start = Date.now()
  try {
    let settled = false
    const done = work().finally(() => {
      settled = true
    })
    done.catch(() => undefined) // awaited below; this only keeps a rejection from counting as unhandled meanwhile
    while (!settled) {
      await new Promise((resolve) => realSetTimeout(resolve, 1))
      if (!settled) await jest.advanceTimersByTimeAsync(STEP_MS)
    }
    const value = await done
    return { value, fakeMs: Date.now() - start }
  } finally {
    jest.useRealTimers()
  }
}
