import { InputError } from '../errors.js'
import { forEachLineBytes } from './lines.js'
import type { BlockCollector } from './run-blocks.js'
import { parseScoreBytes } from './score.js'
import { quote } from '../util/show.js'

/**
 * TREC run reader (`qid Q0 docno rank score tag`, whitespace separated; Q0 and rank ignored, the tag
 * optional). Runs are the one input with millions of lines, so lines are parsed straight from the read
 * buffer: no per-line string, no split, no regex; the query id is decoded only when it changes, the
 * document id is taken as a byte string (order.ts), and the score goes through a correctly rounded fast
 * path (score.ts).
 */

const fatal = new TextDecoder('utf-8', { fatal: true })

interface Latin1Buffer extends Buffer {
  latin1Slice(start: number, end: number): string
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0b || c === 0x0c
}

/** Streams a TREC run file into `collector`. Returns the number of lines. */
export async function readTrecRun(file: string, collector: BlockCollector): Promise<number> {
  // bytes of the current query id, to detect a change without decoding
  let qidBuf = Buffer.alloc(256)
  let qidLen = -1

  const fieldStart = new Int32Array(6)
  const fieldEnd = new Int32Array(6)

  const parseLine = (bytes: Buffer, start: number, end: number, lineNo: number): void => {
    const buf = bytes as Latin1Buffer
    // split into up to 6 fields
    let nf = 0
    let i = start
    let high = 0
    while (i < end) {
      while (i < end && isSpace(buf[i])) i++
      if (i >= end) break
      if (nf === 6) break
      fieldStart[nf] = i
      while (i < end) {
        const c = buf[i]
        if (isSpace(c)) break
        high |= c
        i++
      }
      fieldEnd[nf++] = i
    }
    if (nf === 0) return
    if (nf < 5) {
      throw new InputError(
        { file, line: lineNo },
        `a TREC run line needs the fields "query_id Q0 doc_id rank score [tag]", found ${nf}`,
        'fix or remove the line'
      )
    }
    if (high >= 0x80) {
      // validate UTF-8 of the fields we use (rare path)
      try {
        fatal.decode(buf.subarray(fieldStart[0], fieldEnd[0]))
        fatal.decode(buf.subarray(fieldStart[2], fieldEnd[2]))
      } catch {
        throw new InputError({ file, line: lineNo }, 'is not valid UTF-8', 'save the file as UTF-8')
      }
    }
    // query id: decode only when it changes
    const qs = fieldStart[0]
    const ql = fieldEnd[0] - qs
    let same = ql === qidLen
    if (same) {
      for (let j = 0; j < ql; j++) {
        if (qidBuf[j] !== buf[qs + j]) {
          same = false
          break
        }
      }
    }
    if (!same) {
      if (qidBuf.length < ql) qidBuf = Buffer.alloc(ql * 2)
      buf.copy(qidBuf, 0, qs, qs + ql)
      qidLen = ql
      const id = high >= 0x80 ? buf.toString('utf8', qs, qs + ql) : buf.latin1Slice(qs, qs + ql)
      collector.startQuery(id, lineNo)
    }
    const score = parseScoreBytes(buf, fieldStart[4], fieldEnd[4])
    if (Number.isNaN(score)) {
      const text = buf.toString('utf8', fieldStart[4], fieldEnd[4])
      throw new InputError(
        { file, line: lineNo },
        `score ${quote(text)} is not a finite decimal number`,
        'write scores as plain decimals such as 12.5 or 1.25e-3 (no NaN, inf, hex, or values beyond ±1.8e308)'
      )
    }
    collector.add(buf.latin1Slice(fieldStart[2], fieldEnd[2]), score, lineNo)
  }

  return forEachLineBytes(file, parseLine)
}
