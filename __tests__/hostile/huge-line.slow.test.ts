/**
 * A line of hundreds of megabytes without a newline is refused at the documented line-length cap (16 MiB, the
 * MAX_LINE_BYTES that huge-line.test.ts pins), by every line reader, with memory bounded by the cap and not by the
 * file. It streams a 300 MB file to disk and runs the bundled CLI (dist/cli.js) in a child process, reading its
 * peak RSS (its own VmHWM at exit: ../peak-memory.ts says why not maxRSS). Skip it with RG_SKIP_LARGE=1.
 */
import { expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { once } from 'node:events'
import { tempDir } from '../helpers.js'
import { PEAK_HOOK, readPeak } from '../peak-memory.js'
import { needing, skippedBy } from '../programs.js'

/** The cap the refusal names: MAX_LINE_BYTES in src/readers/lines.ts (huge-line.test.ts checks they agree). */
const MAX_LINE_BYTES = 16 * 1024 * 1024

const root = path.resolve(import.meta.dirname, '../..')
const cliJs = path.join(root, 'dist/cli.js')
const SIZE = 300 * 1024 * 1024
/**
 * Peak RSS allowed for the whole CLI process reading a 300 MB file: Node and the bundle (about 45 MB) plus the
 * 16 MiB cap a few times over. Reading measured 86-89 MB; the reader that joined a long line's chunks anew at each
 * one (the square of the line's length in garbage) peaked at 140-155 MB, which this bound refuses.
 */
const RSS_LIMIT_MB = 128

async function writeHugeLine(file: string, head: string, bytes: number): Promise<void> {
  const out = createWriteStream(file)
  const chunk = Buffer.alloc(1024 * 1024, 0x78)
  out.write(head)
  for (let written = head.length; written < bytes; written += chunk.length) {
    if (!out.write(chunk)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}

// without dist/cli.js (it is committed; `npm run bundle` rebuilds it) skipped with one line, a failure on CI
const large = needing(
  'the 300 MB line test',
  skippedBy('RG_SKIP_LARGE') ??
    (existsSync(cliJs) ? { run: true } : { run: false, reason: `${cliJs} does not exist`, explicit: false }),
  'npm run bundle'
).describe

large('a 300 MB line without a newline (RG_SKIP_LARGE=1 skips)', () => {
  it('is refused at the cap by every reader, with peak RSS bounded', async () => {
    const dir = tempDir('rg-huge-')
    const big = path.join(dir, 'big.txt')
    try {
      await writeHugeLine(big, 'q1 Q0 d1 1 1 ', SIZE)
      // The rows readers get a line that starts like a row: one that starts like a TREC run is refused as a run from
      // its first bytes (readers/shapes.ts), before any cap is reached.
      const rows = path.join(dir, 'big-rows.txt')
      await writeHugeLine(rows, '{"query_id":"q1","m":', SIZE)
      symlinkSync(rows, path.join(dir, 'big.csv'))
      symlinkSync(rows, path.join(dir, 'big.jsonl'))
      await writeHugeLine(path.join(dir, 'big-qrels.txt'), 'q1 0 d1 ', SIZE)
      writeFileSync(
        path.join(dir, 'rules.yml'),
        'version: 1\nmetrics:\n  m: { better: higher }\nchecks:\n  - { name: c, metric: m, non_inferior: { margin: 0.1 } }\n'
      )
      writeFileSync(path.join(dir, 'small.jsonl'), '{"query_id":"q1","m":0.5}\n')
      writeFileSync(path.join(dir, 'qrels.txt'), 'q1 0 d1 1\n')
      writeFileSync(path.join(dir, 'run.txt'), 'q1 Q0 d1 1 1 t\n')
      const runs: Array<[string, string[], string]> = [
        [
          'rows (JSON Lines)',
          ['gate', '--rules', 'rules.yml', '--baseline', 'big.jsonl', '--candidate', 'small.jsonl'],
          'big.jsonl:1'
        ],
        [
          'rows (CSV)',
          ['gate', '--rules', 'rules.yml', '--baseline', 'small.jsonl', '--candidate', 'big.csv'],
          'big.csv:1'
        ],
        ['TREC run', ['metrics', '--qrels', 'qrels.txt', '--run', 'big.txt', '-m', 'P@5'], 'big.txt:1'],
        ['qrels', ['metrics', '--qrels', 'big-qrels.txt', '--run', 'run.txt', '-m', 'P@5'], 'big-qrels.txt:1']
      ]
      for (const [what, args, where] of runs) {
        const start = Date.now()
        const r = spawnSync(process.execPath, ['--import', PEAK_HOOK, cliJs, ...args], {
          cwd: dir,
          encoding: 'utf8',
          timeout: 60000
        })
        const ms = Date.now() - start
        const { mib: rssMb, note: memory, stderr: message } = readPeak(r.stderr)
        try {
          expect(r.status).toBe(2)
          expect(message).toContain(`${where}: line is longer than ${MAX_LINE_BYTES} bytes`)
          expect(message).not.toMatch(/\n\s+at /)
          expect(rssMb).toBeLessThan(RSS_LIMIT_MB)
        } catch (error) {
          throw new Error(
            `${what}: exit ${r.status}, ${rssMb.toFixed(0)} MB peak RSS (${memory}), ${ms} ms\n${message.slice(0, 500)}\n${(error as Error).message}`,
            { cause: error }
          )
        }
        process.stdout.write(`huge line, ${what}: refused in ${ms} ms, peak RSS ${rssMb.toFixed(0)} MB (${memory})\n`)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60000)
})
