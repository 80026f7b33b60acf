/**
 * The peak memory of a child process, measured so that it is the child's own. Linux's `ru_maxrss`
 * (`process.resourceUsage().maxRSS`) is carried over fork and exec: a child of a jest worker that has grown to
 * 400 MB reports at least 400 MB whatever it did itself (a bound the test then fails for nothing), and a growth
 * measured from the child's own start reads +0 up to that mark (a memory test that cannot fail). `VmHWM` in
 * /proc/self/status is the high-water mark of the process's own address space, which exec starts afresh. Where
 * /proc is absent, maxRSS (an upper bound).
 */

/** JavaScript for a child (an ES module): the peak resident memory of this process, in KiB. */
export const PEAK_KIB_SOURCE =
  'const peakKib = () => { try { return Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1]) }' +
  ' catch { return process.resourceUsage().maxRSS } }'

/** The import {@link PEAK_KIB_SOURCE} needs, for the top of a child's module. */
export const PEAK_KIB_IMPORT = 'import { readFileSync } from "node:fs"'

/**
 * A `--import` hook for a child Node process: at exit it writes `PEAK_KIB=<KiB> (<heap, external and array
 * buffers at exit>)` on a line of stderr, for {@link readPeak}.
 */
export const PEAK_HOOK =
  'data:text/javascript,' +
  encodeURIComponent(
    `${PEAK_KIB_IMPORT}\n${PEAK_KIB_SOURCE}\nprocess.on("exit", () => { const m = process.memoryUsage();` +
      ' process.stderr.write(`PEAK_KIB=${peakKib()} heap ${m.heapTotal >> 20} MB, external ${m.external >> 20} MB,' +
      ' array buffers ${m.arrayBuffers >> 20} MB at exit\\n`) })'
  )

/** The peak (MiB) and the memory note a {@link PEAK_HOOK} child wrote, and its stderr without that line. */
export function readPeak(stderr: string): { mib: number; note: string; stderr: string } {
  const m = /PEAK_KIB=(\d+) (.*)\n/.exec(stderr)
  return {
    mib: m === null ? NaN : Number(m[1]) / 1024,
    note: m?.[2] ?? '',
    stderr: stderr.replace(/PEAK_KIB=.*\n/, '')
  }
}
