/**
 * Peak memory of the Parquet reader on the big claims of issue 24, item 8, measured in a child process of its
 * own (child-ts.ts): before the checks, one run-length run of 2^28 values or a row group claiming 2^31 rows cost
 * 0.7-2.7 GB and a minute, a 16 MiB footer 1.4 GB (issue 24; scripts/bench-hostile.js measured 1.6 GB then a V8
 * fatal error, 2.5 GB after 70 s, and 2.0 GB). Each is now refused while the child's peak RSS grows by
 * at most {@link GROWTH_LIMIT_MB} over what loading the code cost, each in well under 2 s. (scripts/bench-hostile.js
 * measures the same files through the whole CLI: docs/limits.md.)
 */
import { describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { writeFiles } from '../helpers.js'
import { PEAK_KIB_IMPORT, PEAK_KIB_SOURCE } from '../peak-memory.js'
import { ROOT, runTsChild } from './child-ts.js'
import { P } from './parquet-builder.js'

/** Peak RSS growth allowed while all the cases below are read, one after the other (MB). */
const GROWTH_LIMIT_MB = 64

const CASES: Array<[name: string, file: Buffer, message: RegExp]> = [
  [
    'one run-length run of 2^28 definition levels',
    P.rleRunTable(2 ** 28),
    /has a run of 268435456 definition levels with only 3 left/
  ],
  ['a row group claiming 2^31 rows', P.claimedRowsTable(2 ** 31), /claims 2147483648 rows/],
  [
    'a 16 MiB footer',
    P.bigFooterTable(16 * 1024 * 1024 - 64),
    /has a Parquet footer of \d+ bytes; the limit is 8388608/
  ],
  ['an 8 MiB footer of empty structs', P.bigFooterTable(8 * 1024 * 1024 - 64), /holds more than 500000 values/],
  ['20,000 nested schema groups', P.nestedSchemaFile(20000), /has a Parquet schema of 20002 elements/],
  ['a column chunk past the end of the file', P.chunkPastEndTable(1000), /claims bytes 1001000/],
  [
    'a page header of 8 Mi empty structs',
    P.bigPageHeaderTable(8 * 1024 * 1024),
    /has a page header that holds more than 1000 values/
  ]
]

describe('hostile Parquet in a process of its own: bounded peak memory', () => {
  it(`the big claims are refused with peak RSS growing by less than ${GROWTH_LIMIT_MB} MB, each in under 2 s`, () => {
    const files = writeFiles({
      'honest.parquet': P.honestTable(100),
      ...Object.fromEntries(CASES.map(([, file], i) => [`case-${i}.parquet`, file]))
    })
    const paths = CASES.map((_, i) => files[`case-${i}.parquet`])
    const script = `
${PEAK_KIB_IMPORT}
import { readRows } from ${JSON.stringify(path.join(ROOT, 'src/readers/read.ts'))}
const paths = ${JSON.stringify(paths)}
const honest = ${JSON.stringify(files['honest.parquet'])}
${PEAK_KIB_SOURCE}
const rss = () => peakKib() / 1024
// load and warm the code on an honest file first: what is measured is reading, not loading
if ((await readRows(honest, { metricFields: new Set(['m']) })).ids.length !== 100) throw new Error('the honest table was not read')
const base = rss()
const results = []
for (const file of paths) {
  const start = Date.now()
  let message = 'accepted'
  try {
    await readRows(file, { metricFields: new Set(['m']) })
  } catch (error) {
    message = String(error?.message ?? error)
  }
  results.push({ ms: Date.now() - start, growthMb: rss() - base, message })
}
process.stdout.write(JSON.stringify(results))
`
    const r = runTsChild(script, 120000)
    expect(r.stderr.replace(/.*ExperimentalWarning.*\n|.*--trace-warnings.*\n/g, '')).toBe('')
    const results = JSON.parse(r.stdout) as Array<{ ms: number; growthMb: number; message: string }>
    process.stdout.write(
      `hostile Parquet, peak RSS growth per case (MB): ${results.map((x, i) => `${CASES[i][0]}: +${x.growthMb.toFixed(1)} in ${x.ms} ms`).join('; ')}\n`
    )
    CASES.forEach(([name, , message], i) => {
      const got = results[i]
      try {
        expect(got.message).toMatch(message)
        expect(got.ms).toBeLessThan(2000)
        expect(got.growthMb).toBeLessThan(GROWTH_LIMIT_MB)
      } catch (error) {
        throw new Error(
          `${name}: ${got.ms} ms, peak RSS +${got.growthMb.toFixed(0)} MB: ${got.message.slice(0, 300)}`,
          { cause: error }
        )
      }
    })
  }, 150000)
})
