// What every benchmark script shares: the repository root, option parsing, a seeded generator for test data,
// and timing a whole process (wall seconds, CPU seconds and peak RSS through /usr/bin/time when present, so
// our CLI and the reference tool are measured the same way, in the same run).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** `--name value` from the command line, or the fallback. */
export function opt(name, fallback, argv = process.argv.slice(2)) {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : fallback
}

/** mulberry32: small, fast, seeded (benchmark data only; the gate's resampling uses its own generator). */
export function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null

/**
 * Runs a command to its end: { code, stdout, stderr, wall, cpu, peakMiB } (cpu and peakMiB are null without
 * /usr/bin/time). Exit codes in `options.ok` are results (default 0 and 1, the gate's "fail"); any other code
 * throws with stderr. A reference tool passes ok: [0], so that its crash (python exits 1 on an exception)
 * is never timed as a run.
 */
export function measure(cmd, args, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'rg-bench-'))
  const timeFile = join(dir, 'time.txt')
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = TIME
      ? spawn(TIME, ['-f', '%U %S %M', '-o', timeFile, cmd, ...args], { cwd: options.cwd ?? root })
      : spawn(cmd, args, { cwd: options.cwd ?? root })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - start) / 1e9
      let cpu = null
      let peakMiB = null
      if (TIME && existsSync(timeFile)) {
        const [user, sys, maxKb] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(/\s+/).map(Number)
        cpu = user + sys
        peakMiB = maxKb / 1024
      }
      rmSync(dir, { recursive: true, force: true })
      if (!(options.ok ?? [0, 1]).includes(code))
        return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.slice(0, 2000)}`))
      resolve({ code, stdout, stderr, wall, cpu, peakMiB })
    })
  })
}

/** The fastest of `runs` runs (by wall time), with the highest peak memory seen over all of them. */
export async function best(cmd, args, runs, options = {}) {
  let top = null
  let peak = null
  for (let i = 0; i < runs; i++) {
    const r = await measure(cmd, args, options)
    if (r.peakMiB !== null) peak = Math.max(peak ?? 0, r.peakMiB)
    if (!top || r.wall < top.wall) top = r
  }
  return { ...top, peakMiB: peak }
}

/**
 * Writes `count` generated lines to `file` in 1 MiB writes, honouring back-pressure, so a multi-gigabyte input
 * costs a buffer, not its size; an existing file is kept (generated data is reused between runs).
 */
export async function writeLines(file, count, line) {
  if (existsSync(file)) return
  const out = createWriteStream(file)
  let buf = ''
  for (let i = 0; i < count; i++) {
    buf += line(i)
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain')
      buf = ''
    }
  }
  out.write(buf)
  out.end()
  await once(out, 'finish')
}

/**
 * The scipy reference both statistics benchmarks run (bench-stats.js, bench-scale.js): scipy.stats.bootstrap,
 * paired, vectorized, percentile, of the mean difference of each metric over the queries in id order, seeded;
 * prints {metric: [low, high]} as JSON.
 */
export function scipyBootstrapScript(metrics, resamples) {
  return `import json, sys
import numpy as np
from scipy import stats
metrics = ${JSON.stringify(metrics)}
def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            rows[r['query_id']] = r
    return rows
b, c = load(sys.argv[1]), load(sys.argv[2])
ids = sorted(b)
out = {}
for m in metrics:
    x = np.array([b[i][m] for i in ids], dtype=float)
    y = np.array([c[i][m] for i in ids], dtype=float)
    res = stats.bootstrap((x, y), lambda p, q, axis: np.mean(q - p, axis=axis), paired=True, vectorized=True,
                          method='percentile', n_resamples=${resamples}, confidence_level=0.95,
                          random_state=np.random.default_rng(1))
    out[m] = [float(res.confidence_interval.low), float(res.confidence_interval.high)]
print(json.dumps(out))
`
}
