/**
 * ranx `.lz4` runs and judgments: `Run.save("run.lz4")` = ranx 0.3.21 `io.save_lz4`, an LZ4 frame (lz4.frame.open)
 * around `lz4.frame.compress(cbor2.dumps(run.to_dict()), compression_level=16)`. They are recognised by the frame
 * magic and refused with the one-line conversion ranx does (src/readers/importers/ranx-lz4.ts says why they are not
 * read). The fixtures were written by scripts/tool-fixtures.py calling ranx's own Run.save and save_lz4 (ranx 0.3.21,
 * lz4 4.4.5, cbor2 6.3.0; VERSIONS.txt): real files, each refused by name, and so is a frame that claims a terabyte
 * (nothing of it is decoded).
 */
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { computeRunRows, detectRunFormat, readQrels } from '../../src/metrics/index.js'
import { readRows } from '../../src/readers/read.js'
import { cli, refusal, tempDir, writeFiles } from '../helpers.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'importers')
const trec = join(process.cwd(), '__tests__', 'fixtures', 'trec')

const scoreRun = (runFile: string) => () =>
  computeRunRows({ runFile, qrelsFile: join(trec, 'qrels.txt'), measures: ['AP'], noRelevant: 'zero' })

describe('ranx .lz4', () => {
  it('is detected by the frame magic 04 22 4D 18, whatever the file is called', async () => {
    expect(await detectRunFormat(join(fx, 'ranx/run.lz4'))).toBe('lz4')
    const renamed = join(tempDir(), 'run.txt')
    copyFileSync(join(fx, 'ranx/run.lz4'), renamed)
    expect(await detectRunFormat(renamed)).toBe('lz4')
  })

  it('a run ranx wrote is refused with the file and the conversion to a format read streaming', async () => {
    for (const file of ['ranx/run.lz4', 'ranx/run-linked-checksums.lz4']) {
      expect((await refusal(scoreRun(join(fx, file)))).message).toMatch(
        /\.lz4: is a ranx \.lz4 file \(an LZ4 frame\), which is not read\. convert it with ranx: Run\.from_file\("run\.lz4"\)\.save\("run\.trec"\) \(or "run\.json"\)/
      )
    }
  })

  it('judgments in the same layout are refused with the conversion of judgments', async () => {
    expect((await refusal(() => readQrels(join(fx, 'ranx/qrels.lz4')))).message).toMatch(
      /qrels\.lz4: is a ranx \.lz4 file \(an LZ4 frame\), which is not read\. convert it with ranx: Qrels\(ranx\.io\.load_lz4\("qrels\.lz4"\)\)\.save\("qrels\.trec"\)/
    )
  })

  it('an LZ4 bomb (a frame claiming 2^40 bytes) is refused by name before anything is decoded, exit 2', async () => {
    const claim = Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x68, 0x40, 0, 0, 0, 0, 0, 1, 0, 0, 0x00, 0, 0, 0, 0])
    const f = writeFiles({ 'bomb.lz4': claim })
    const start = Date.now()
    const r = await cli(['metrics', '--qrels', join(trec, 'qrels.txt'), '--run', f['bomb.lz4'], '-m', 'AP'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/bomb\.lz4: is a ranx \.lz4 file \(an LZ4 frame\), which is not read/)
    expect(Date.now() - start).toBeLessThan(2000)
  })

  it('judgments in Parquet (ranx Qrels.save("qrels.parquet")) are refused by name, not as "invalid UTF-8"', async () => {
    const message = (
      await refusal(() => readQrels(join(process.cwd(), '__tests__', 'fixtures', 'parquet', 'baseline.parquet')))
    ).message
    expect(message).toMatch(
      /baseline\.parquet: is a Parquet table \(ranx Qrels\.save\("qrels\.parquet"\)\?\); judgments are read from TREC qrels, .*\. save them with qrels\.save\("qrels\.json"\)/
    )
  })

  it('given where per-query rows are expected, a .lz4 run is named as a run, with the conversion and the judgments', async () => {
    const message = (await refusal(() => readRows(join(fx, 'ranx/run.lz4'), { metricFields: new Set(['AP']) }))).message
    expect(message).toMatch(
      /run\.lz4: this looks like a ranx \.lz4 run \(an LZ4 frame\), not per-query rows; \.lz4 files are not read\. convert it with ranx: .*; then name the judgments \(rules key judgments\.qrels.*--qrels/
    )
  })
})
