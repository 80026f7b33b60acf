/**
 * ranx `.lz4` runs and judgments: `Run.save("run.lz4")` = ranx 0.3.21 `io.save_lz4`, an LZ4 frame (lz4.frame.open)
 * around `lz4.frame.compress(cbor2.dumps(run.to_dict()), compression_level=16)`. The fixtures were written by
 * scripts/tool-fixtures.py calling ranx's own Run.save and save_lz4 (ranx 0.3.21, lz4 4.4.5, cbor2 6.3.0; VERSIONS.txt),
 * from the TREC conformance fixtures, so the numbers must be exactly the TREC run's. Hostile frames are built here by
 * hand (an uncompressed-block frame around chosen CBOR bytes) and must each be refused with the file and a hint.
 */
import { readFileSync, copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { computeRunRows, detectRunFormat, readQrels } from '../../src/metrics/index.js'
import { readRun } from '../../src/readers/run.js'
import { readRows } from '../../src/readers/rows.js'
import { xxhash32 } from '../../src/readers/binary/xxhash32.js'
import { decompressLz4Frames, Lz4FrameError } from '../../src/readers/binary/lz4-frame.js'
import { refusal, tempDir, writeFiles } from '../helpers.js'
import { rowsOf, type SideRows } from '../../src/model/rows.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'importers')
const trec = join(process.cwd(), '__tests__', 'fixtures', 'trec')
const MEASURES = ['AP', 'nDCG@10', 'P@5', 'R@100', 'RR', 'Bpref', 'NumRet', 'Judged@10']

/** An LZ4 frame holding `content` in one uncompressed block (FLG 0x60: version 1, independent blocks). */
function rawFrame(content: Uint8Array, flg = 0x60): Buffer {
  const descriptor = Buffer.from([flg, 0x40])
  const hc = (xxhash32(descriptor) >>> 8) & 0xff
  const size = Buffer.alloc(4)
  size.writeUInt32LE((content.length | 0x80000000) >>> 0)
  return Buffer.concat([
    Buffer.from([0x04, 0x22, 0x4d, 0x18]),
    descriptor,
    Buffer.from([hc]),
    size,
    content,
    Buffer.alloc(4)
  ])
}

/** CBOR text string (short). */
function text(s: string): Buffer {
  const b = Buffer.from(s, 'utf8')
  return Buffer.concat([Buffer.from([0x60 + b.length]), b])
}

/** CBOR double. */
function f64(x: number): Buffer {
  const b = Buffer.alloc(9)
  b[0] = 0xfb
  b.writeDoubleBE(x, 1)
  return b
}

function valuesById(side: SideRows): Array<[string, Array<[string, number | null]>]> {
  return rowsOf(side).map((r) => [r.id, [...r.values.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))])
}

describe('ranx .lz4', () => {
  it('xxHash32 matches the reference vectors (xxhash.c: "" -> 0x02CC5D05, "abc" -> 0x32D153FF)', () => {
    expect(xxhash32(new Uint8Array(0))).toBe(0x02cc5d05)
    expect(xxhash32(Buffer.from('abc'))).toBe(0x32d153ff)
  })

  it('is detected by the frame magic 04 22 4D 18, whatever the file is called', async () => {
    expect(await detectRunFormat(join(fx, 'ranx/run.lz4'))).toBe('lz4')
    const renamed = join(tempDir(), 'run.txt')
    copyFileSync(join(fx, 'ranx/run.lz4'), renamed)
    expect(await detectRunFormat(renamed)).toBe('lz4')
  })

  it('a ranx .lz4 run scores exactly as the TREC run, with TREC or .lz4 judgments (every query, every measure)', async () => {
    const qrels = await readQrels(join(trec, 'qrels.txt'))
    const reference = await computeRunRows({
      runFile: join(trec, 'run.txt'),
      qrels,
      measures: MEASURES,
      noRelevant: 'zero'
    })
    for (const judgments of [qrels, await readQrels(join(fx, 'ranx/qrels.lz4'))]) {
      const got = await computeRunRows({
        runFile: join(fx, 'ranx/run.lz4'),
        qrels: judgments,
        measures: MEASURES,
        noRelevant: 'zero'
      })
      expect(valuesById(got.side)).toEqual(valuesById(reference.side))
      expect(got.coverage.runFormat).toBe('lz4')
    }
  })

  it('reads .lz4 judgments as the TREC qrels (1270 judgments)', async () => {
    const q = await readQrels(join(fx, 'ranx/qrels.lz4'))
    const ref = await readQrels(join(trec, 'qrels.txt'))
    expect(q.ids).toEqual(ref.ids)
    expect(q.judgments).toBe(1270)
    for (const id of ref.ids) expect([...q.queries.get(id)!.gradesDesc]).toEqual([...ref.queries.get(id)!.gradesDesc])
  })

  it('decodes linked 64 KiB blocks with block and content checksums (tool-fixtures.py: 300 queries x 100 documents)', async () => {
    const seen = new Map<string, Map<string, number>>()
    await readRun(
      join(fx, 'ranx/run-linked-checksums.lz4'),
      (block) => {
        const docs = new Map<string, number>()
        for (let k = 0; k < block.count; k++) docs.set(block.docnos[k], block.scores[k])
        seen.set(block.id, docs)
      },
      () => seen.clear()
    )
    expect(seen.size).toBe(300)
    const wrong: string[] = []
    let checked = 0
    for (let i = 0; i < 300; i++) {
      const docs = seen.get(`q${String(i).padStart(3, '0')}`)
      for (let j = 0; j < 100; j++) {
        const got = docs?.get(`d${String(j).padStart(3, '0')}`)
        if (got !== ((i * 7919 + j * 104729) % 1000) / 8) wrong.push(`q${i} d${j}: ${String(got)}`)
        checked++
      }
      if (docs?.size !== 100) wrong.push(`q${i} has ${String(docs?.size)} documents`)
    }
    expect(wrong).toEqual([])
    expect(checked).toBe(30000)
  })

  it('refuses a damaged file by its checksum, and a cut one, naming the file and what to do', async () => {
    const good = readFileSync(join(fx, 'ranx/run-linked-checksums.lz4'))
    const flipped = Buffer.from(good)
    flipped[200] ^= 0x01
    const header = Buffer.from(good)
    header[6] ^= 0xff
    const f = writeFiles({ 'flip.lz4': flipped, 'cut.lz4': good.subarray(0, good.length - 100), 'header.lz4': header })
    expect((await refusal(() => readQrels(f['flip.lz4']))).message).toMatch(
      /flip\.lz4: is not a readable LZ4 file: it has a wrong checksum on the block at byte \d+ \(the file is damaged\)\. save it again with ranx/
    )
    expect((await refusal(() => readQrels(f['cut.lz4']))).message).toMatch(
      /cut\.lz4: is not a readable LZ4 file: it is cut short/
    )
    expect((await refusal(() => readQrels(f['header.lz4']))).message).toMatch(
      /header\.lz4: is not a readable LZ4 file: it has a wrong header checksum/
    )
  })

  it('refuses CBOR that is not {query_id: {doc_id: number}}: deep nesting (no recursion), null, NaN, a repeated query, trailing bytes', async () => {
    const deep = Buffer.alloc(60000, 0x81) // [[[[...]]]]: refused at its first byte, never recursed into
    const ok = (score: Buffer): Buffer =>
      Buffer.concat([Buffer.from([0xa1]), text('q1'), Buffer.from([0xa1]), text('d1'), score])
    const f = writeFiles({
      'deep.lz4': rawFrame(deep),
      'null.lz4': rawFrame(ok(Buffer.from([0xf6]))),
      'nan.lz4': rawFrame(ok(Buffer.from([0xf9, 0x7e, 0x00]))),
      'twice.lz4': rawFrame(
        Buffer.concat([Buffer.from([0xa2]), text('q1'), Buffer.from([0xa0]), text('q1'), Buffer.from([0xa0])])
      ),
      'trailing.lz4': rawFrame(Buffer.concat([ok(f64(1.5)), Buffer.from([0x00])])),
      'good.lz4': rawFrame(ok(f64(1.5)))
    })
    const run = async (file: string): Promise<string> =>
      (
        await refusal(() =>
          computeRunRows({ runFile: file, qrelsFile: join(trec, 'qrels.txt'), measures: ['AP'], noRelevant: 'zero' })
        )
      ).message
    expect(await run(f['deep.lz4'])).toMatch(
      /deep\.lz4: is an LZ4 file whose content is not a ranx \{query_id: \{doc_id: score\}\} dict: it has an array at byte 0 where the whole file should be a map\. ranx's save_lz4 writes the CBOR of/
    )
    expect(await run(f['null.lz4'])).toMatch(/null\.lz4: .*has null at byte \d+ where a score should be a number/)
    expect(await run(f['nan.lz4'])).toMatch(/nan\.lz4:1: the score of document "d1" is NaN .*q1/)
    expect(await run(f['twice.lz4'])).toMatch(/twice\.lz4: .*repeats the query id "q1" \(entries 1 and 2 of the map\)/)
    expect(await run(f['trailing.lz4'])).toMatch(/trailing\.lz4: .*has 1 bytes after the map/)
    expect((await refusal(() => readQrels(f['good.lz4']))).message).toMatch(
      /grade 1\.5 of document "d1" is not a whole number/
    )
  })

  it('never grows its output past the cap: a frame that claims or expands to more is refused before it is built', () => {
    // one block: a literal "a", then a match of offset 1 repeated to 4 + 15 + 255 * 40 bytes
    const block = Buffer.concat([
      Buffer.from([0x1f, 0x61, 0x01, 0x00]),
      Buffer.alloc(40, 0xff),
      Buffer.from([0x00, 0x00])
    ])
    const size = Buffer.alloc(4)
    size.writeUInt32LE(block.length)
    const descriptor = Buffer.from([0x60, 0x40])
    const frame = Buffer.concat([
      Buffer.from([0x04, 0x22, 0x4d, 0x18]),
      descriptor,
      Buffer.from([(xxhash32(descriptor) >>> 8) & 0xff]),
      size,
      block,
      Buffer.alloc(4)
    ])
    expect(decompressLz4Frames(frame, 1 << 20).length).toBe(1 + 4 + 15 + 255 * 40)
    expect(() => decompressLz4Frames(frame, 1000)).toThrow(Lz4FrameError)
    expect(() => decompressLz4Frames(frame, 1000)).toThrow(/decompresses to more than 1000 bytes/)
    const claim = Buffer.from([0x68, 0x40, 0, 0, 0, 0, 0, 1, 0, 0]) // content size 2^40
    const big = Buffer.concat([
      Buffer.from([0x04, 0x22, 0x4d, 0x18]),
      claim,
      Buffer.from([(xxhash32(claim) >>> 8) & 0xff]),
      Buffer.alloc(4)
    ])
    expect(() => decompressLz4Frames(big, 1 << 20)).toThrow(
      /declares 1099511627776 bytes of content, more than the limit/
    )
    const badOffset = Buffer.concat([
      Buffer.from([0x04, 0x22, 0x4d, 0x18]),
      descriptor,
      Buffer.from([(xxhash32(descriptor) >>> 8) & 0xff]),
      Buffer.from([4, 0, 0, 0, 0x10, 0x61, 0x05, 0x00]),
      Buffer.alloc(4)
    ])
    expect(() => decompressLz4Frames(badOffset, 1 << 20)).toThrow(/match offset 5 before the start of the data/)
    // the refusal's hint (save as TREC or JSON, or save again) follows this flag, not the message's wording
    const caught = (decode: () => unknown): Lz4FrameError => {
      try {
        decode()
      } catch (error) {
        if (error instanceof Lz4FrameError) return error
      }
      throw new Error('no Lz4FrameError')
    }
    expect([frame, big, badOffset].map((f) => caught(() => decompressLz4Frames(f, 1000)).tooLarge)).toEqual([
      true,
      true,
      false
    ])
  })

  it('judgments in Parquet (ranx Qrels.save("qrels.parquet")) are refused by name, not as "invalid UTF-8"', async () => {
    const message = (
      await refusal(() => readQrels(join(process.cwd(), '__tests__', 'fixtures', 'parquet', 'baseline.parquet')))
    ).message
    expect(message).toMatch(
      /baseline\.parquet: is a Parquet table \(ranx Qrels\.save\("qrels\.parquet"\)\?\); judgments are read from TREC qrels, .*\. save them with qrels\.save\("qrels\.json"\)/
    )
  })

  it('given where per-query rows are expected, a .lz4 run is named as a run and the judgments are asked for', async () => {
    const message = (await refusal(() => readRows(join(fx, 'ranx/run.lz4'), { metricFields: new Set(['AP']) }))).message
    expect(message).toMatch(
      /run\.lz4: this looks like a ranx \.lz4 run \(an LZ4 frame\), not per-query rows\. name the judgments \(rules key judgments\.qrels.*--qrels/
    )
  })
})
