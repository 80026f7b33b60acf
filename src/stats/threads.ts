/**
 * The thread pool of the statistics: the one module of the core that reaches outside (worker_threads, the
 * number of cores, RG_THREADS). It runs the units of a kernel job (src/stats/kernels.ts) on the calling
 * thread and on worker threads at once, and returns when every unit is done, synchronously, so the
 * statistics keep their plain synchronous API.
 *
 * Why the result cannot depend on the number of threads: a unit writes only its own slots of the output,
 * with its own random stream (fixed blocks, src/stats/rng.ts), and every thread runs the same source text
 * ({@link statsKernels}). Threads only change who computes a unit, never what it computes.
 *
 * How: the job's arrays are copied into SharedArrayBuffers and posted to each worker's port; the workers,
 * woken by Atomics.notify, read it with receiveMessageOnPort and claim units with Atomics.add, as does the
 * calling thread. The caller then waits (Atomics.wait) for the units others claimed; if a worker fails or
 * stalls, the caller computes the missing units itself, so a broken worker costs time, never a result.
 * Workers are unref'd (they never keep the process alive) and are shut down at the next turn of the event
 * loop after the synchronous work that used them.
 */
import os from 'node:os'
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads'
import { statsKernels, type KernelJob, type Kernels } from './kernels.js'

/** Most threads ever used, whatever the machine says: beyond this the copies and wake-ups cost more than they save. */
export const MAX_THREADS = 8

/**
 * Least work (resampled units × columns, or flipped groups × columns; about a nanosecond each) for which
 * workers are started: starting one costs 30-50 ms, so smaller jobs run on the calling thread alone.
 */
const MIN_WORK = 40_000_000

/**
 * Least work of one batch sent to workers already started: below it (about 2 ms of work; a slice of a few
 * dozen queries) the batch runs on the calling thread, since copying it to shared memory and waking the
 * workers costs about as much, and the shared copies would live on in the workers' heaps until they collect
 * garbage, which idle workers seldom do (measured: +250 MiB for 1,000 slice values of 7 queries, docs/scale.md).
 */
const MIN_BATCH_WORK = 2_000_000

/** A worker that makes no progress for this long is given up on; the caller computes its units. */
const STALL_MS = 2000

/** Kernel jobs to run, and how to read their result once they have run. */
export interface KernelPlan<T> {
  jobs: KernelJob[]
  finish(): T
}

/** Runs kernel jobs: all their units, as one batch (a thread that runs out of one job's units takes the next job's). */
export interface KernelRunner {
  readonly threads: number
  run(jobs: KernelJob[]): void
  /** Starts the workers ahead of a job of this size (so their start overlaps other work); no-op below {@link MIN_WORK}. */
  prepare(work: number): void
  /** Units computed by worker threads so far (tests check that the threaded path really ran). */
  readonly unitsOnWorkers: number
}

/** Knobs for tests: the least work that starts workers, whether the calling thread takes units itself, how long a stall may last. */
export interface RunnerOptions {
  minWork?: number
  callerWorks?: boolean
  stallMs?: number
}

/**
 * Threads to use from RG_THREADS (a positive integer; 1 = no worker threads) or else the machine's
 * available parallelism, capped at {@link MAX_THREADS}. An unusable RG_THREADS is ignored (it cannot
 * change a result, only the time).
 */
export function threadsFrom(setting: string | undefined, cores: number): number {
  const asked = setting !== undefined && /^\s*\d+\s*$/.test(setting) ? Number(setting) : Number.NaN
  const n = asked >= 1 ? asked : cores
  return Math.max(1, Math.min(MAX_THREADS, Math.floor(n) || 1))
}

/** The machine's available parallelism (cores). */
function availableCores(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length
}

/**
 * The default number of threads: the setting (RG_THREADS, read by the entry points cli.ts and main.ts, which
 * alone touch the environment), else os.availableParallelism(), capped.
 */
export function defaultThreads(setting?: string): number {
  return threadsFrom(setting, availableCores())
}

let mainKernels: Kernels | null = null
const kernels = (): Kernels => (mainKernels ??= statsKernels())

/** Runs every unit on the calling thread. */
function runAll(jobs: KernelJob[]): void {
  const k = kernels()
  for (const job of jobs) for (let u = 0; u < job.units; u++) k.runUnit(job, u)
}

/** The runner that never starts a worker (RG_THREADS=1, tests, small inputs). */
export const SYNC_RUNNER: KernelRunner = { threads: 1, run: runAll, prepare: () => undefined, unitsOnWorkers: 0 }

/** The source a worker evaluates: the kernels' own source text, and a loop claiming units of posted jobs. */
function workerSource(): string {
  return `'use strict'
const { workerData, receiveMessageOnPort } = require('node:worker_threads')
const kernels = (${statsKernels.toString()})()
const { port, wake } = workerData
const work = (batch) => {
  const { jobs, ctl, done, units } = batch
  try {
    for (;;) {
      const u = Atomics.add(ctl, 0, 1)
      if (u >= units) return
      let i = 0
      let v = u
      while (v >= jobs[i].units) v -= jobs[i++].units
      kernels.runUnit(jobs[i], v)
      Atomics.store(done, u, 1)
      Atomics.add(ctl, 1, 1)
      Atomics.notify(ctl, 1)
    }
  } catch (e) {
    Atomics.store(ctl, 2, 1)
    Atomics.notify(ctl, 1)
  }
}
for (;;) {
  const seen = Atomics.load(wake, 0)
  if (seen < 0) break
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) work(m.message)
  Atomics.wait(wake, 0, seen)
}
port.close()
`
}

interface Pool {
  workers: Worker[]
  ports: MessagePort[]
  wake: Int32Array
  broken: boolean
}

/**
 * Elements from which {@link workerArray} allocates in shared memory: a large array that a job reads is then
 * not copied for the workers (at 10^6 queries a design's values are 40 MB); a small one is cheaper to copy
 * than a SharedArrayBuffer is to allocate.
 */
const SHARED_FROM = 1 << 16

/** A Float64Array a kernel job will read, in shared memory when it is large (so the runner need not copy it). */
export function workerArray(length: number): Float64Array {
  return length >= SHARED_FROM ? new Float64Array(new SharedArrayBuffer(8 * length)) : new Float64Array(length)
}

/** The same for 32-bit integers (unit keys). */
export function workerInts(length: number): Int32Array {
  return length >= SHARED_FROM ? new Int32Array(new SharedArrayBuffer(4 * length)) : new Int32Array(length)
}

/** A shared copy of a typed array (same type, same contents), or the array itself when it is already shared. */
function shared<T extends Float64Array | Int32Array | Uint32Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a
  const Ctor = a.constructor as new (buffer: SharedArrayBuffer) => T
  const out = new Ctor(new SharedArrayBuffer(a.byteLength))
  out.set(a)
  return out
}

/** A batch of jobs with every array in shared memory, plus its control words: [next unit, units done, failed]. */
interface Batch {
  jobs: KernelJob[]
  units: number
  ctl: Int32Array
  done: Int32Array
}

/** The job with every array in shared memory (a worker sees the same memory, not a copy). */
function sharedJob(job: KernelJob): KernelJob {
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(job)) {
    if (ArrayBuffer.isView(value)) copy[key] = shared(value as Float64Array)
    else if (Array.isArray(value))
      copy[key] = (value as unknown[]).map((v) => (ArrayBuffer.isView(v) ? shared(v as Float64Array) : v))
    else copy[key] = value
  }
  return copy as unknown as KernelJob
}

function sharedBatch(jobs: KernelJob[]): Batch {
  const units = jobs.reduce((n, j) => n + j.units, 0)
  return {
    jobs: jobs.map(sharedJob),
    units,
    ctl: new Int32Array(new SharedArrayBuffer(12)),
    done: new Int32Array(new SharedArrayBuffer(4 * units))
  }
}

/** Unit u of a batch: its job and its index within the job. */
function runUnit(k: Kernels, jobs: KernelJob[], u: number): void {
  let i = 0
  while (u >= jobs[i].units) u -= jobs[i++].units
  k.runUnit(jobs[i], u)
}

/**
 * A runner over `threads` threads (the caller and threads - 1 workers, started on the first job of at least
 * {@link MIN_WORK}, or by {@link KernelRunner.prepare}). The result of every job is the same bytes as
 * {@link SYNC_RUNNER}'s.
 */
export function createRunner(threads: number, options: RunnerOptions = {}): KernelRunner {
  if (threads <= 1) return SYNC_RUNNER
  const minWork = options.minWork ?? MIN_WORK
  const callerWorks = options.callerWorks ?? true
  const stallMs = options.stallMs ?? STALL_MS
  const batchWork = Math.min(minWork, MIN_BATCH_WORK)
  let pool: Pool | null = null
  let unitsOnWorkers = 0
  let closing = false

  const close = (): void => {
    const p = pool
    pool = null
    closing = false
    if (!p) return
    Atomics.store(p.wake, 0, -1)
    Atomics.notify(p.wake, 0)
    for (const w of p.workers) void w.terminate().catch(() => undefined)
    for (const port of p.ports) port.close()
  }
  /** Shut the workers down at the next turn of the event loop: every synchronous use of them is over by then. */
  const closeSoon = (): void => {
    if (closing) return
    closing = true
    setTimeout(close, 0).unref()
  }
  const start = (): Pool | null => {
    if (pool) return pool
    try {
      const wake = new Int32Array(new SharedArrayBuffer(4))
      const p: Pool = { workers: [], ports: [], wake, broken: false }
      const source = workerSource()
      for (let i = 1; i < threads; i++) {
        const { port1, port2 } = new MessageChannel()
        const worker = new Worker(source, { eval: true, workerData: { port: port2, wake }, transferList: [port2] })
        worker.unref()
        // A worker that dies only costs time: the caller computes the units it did not finish.
        worker.on('error', () => {
          p.broken = true
        })
        port1.unref()
        p.workers.push(worker)
        p.ports.push(port1)
      }
      pool = p
    } catch {
      pool = null
    }
    closeSoon()
    return pool
  }

  return {
    threads,
    get unitsOnWorkers() {
      return unitsOnWorkers
    },
    prepare(work) {
      if (work >= minWork) start()
    },
    run(jobs) {
      const units = jobs.reduce((n, j) => n + j.units, 0)
      const work = jobs.reduce((n, j) => n + j.work, 0)
      const p = units >= 2 && work >= batchWork && (pool !== null || work >= minWork) ? start() : null
      if (!p || p.broken) return runAll(jobs)
      closeSoon()
      const batch = sharedBatch(jobs)
      for (const port of p.ports) port.postMessage(batch)
      Atomics.add(p.wake, 0, 1)
      Atomics.notify(p.wake, 0)
      const k = kernels()
      const { ctl, done } = batch
      let mine = 0
      for (; callerWorks; mine++) {
        const u = Atomics.add(ctl, 0, 1)
        if (u >= units) break
        runUnit(k, batch.jobs, u)
        Atomics.store(done, u, 1)
        Atomics.add(ctl, 1, 1)
      }
      let seen = Atomics.load(ctl, 1)
      while (seen < units && Atomics.load(ctl, 2) === 0) {
        const outcome = Atomics.wait(ctl, 1, seen, stallMs)
        const now = Atomics.load(ctl, 1)
        if (outcome === 'timed-out' && now === seen) break
        seen = now
      }
      if (Atomics.load(ctl, 2) !== 0) p.broken = true
      unitsOnWorkers += Atomics.load(ctl, 1) - mine
      // Units a failed or stalled worker left: computed here (the same bits; a late worker writes the same values).
      for (let u = 0; u < units; u++) if (Atomics.load(done, u) !== 1) runUnit(k, batch.jobs, u)
      jobs.forEach((job, i) => job.out.set(batch.jobs[i].out))
    }
  }
}
