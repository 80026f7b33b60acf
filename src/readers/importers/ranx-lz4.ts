import { InputError } from '../../errors.js'
import type { Qrels } from '../../model/qrels.js'
import { toByteString } from '../../util/order.js'
import { quote } from '../../util/show.js'
import {
  decodeNestedNumbers,
  CborShapeError,
  type CborNestedHandler,
  type CborNestedWords
} from '../binary/cbor-nested.js'
import { decompressLz4Frames, Lz4FrameError, startsWithLz4Magic } from '../binary/lz4-frame.js'
import type { BlockCollector } from '../run-blocks.js'
import { MAX_DOCUMENT_BYTES } from '../json/document.js'
import { readWholeBytes } from '../whole-file.js'
import { MAX_KEY_BYTES } from '../json/nested.js'
import { QrelsBuilder } from './qrels-builder.js'

/**
 * ranx's `.lz4` runs: `Run.save("run.lz4")` calls `save_lz4(self.to_dict(), path)` (ranx 0.3.20 `ranx/io.py`),
 * which writes `lz4.frame.compress(cbor2.dumps(run), compression_level=16)` through `lz4.frame.open(path, "wb")`:
 * an LZ4 frame whose content is itself an LZ4 frame whose content is the CBOR of `{query_id: {doc_id: score}}`.
 * (ranx 0.3.20's `Qrels.save` has no lz4 kind, but `load_lz4` reads qrels from ranxhub in the same layout, so
 * judgments in it are read too.) Detected by the frame magic `04 22 4D 18`, whatever the file's name.
 *
 * Unlike the JSON form this cannot be streamed (the CBOR sits inside two compressed layers), so the file, each
 * decompressed layer and the CBOR are capped at {@link MAX_DOCUMENT_BYTES}, the limit for every document the gate
 * reads whole; a larger run is refused with the formats that stream.
 */

const TOO_LARGE_HINT =
  'save the run as TREC (run.save("run.trec")) or JSON (run.save("run.json")), which are read streaming'
const DAMAGED_HINT =
  'save it again with ranx (run.save("run.lz4")), or as TREC (run.save("run.trec")) or JSON (run.save("run.json"))'

/** The CBOR inside a ranx `.lz4` file: both frame layers removed (the inner one when present). */
async function cborOf(file: string, what: string): Promise<Uint8Array> {
  const bytes = await readWholeBytes(file, { limit: MAX_DOCUMENT_BYTES, what: `an LZ4 ${what}`, hint: TOO_LARGE_HINT })
  try {
    const outer = decompressLz4Frames(bytes, MAX_DOCUMENT_BYTES)
    return startsWithLz4Magic(outer) ? decompressLz4Frames(outer, MAX_DOCUMENT_BYTES) : outer
  } catch (error) {
    if (error instanceof Lz4FrameError)
      throw new InputError(
        { file },
        `is not a readable LZ4 file: it ${error.message}`,
        error.tooLarge ? TOO_LARGE_HINT : DAMAGED_HINT
      )
    throw error
  }
}

/** What a CBOR dict is decoded into and how its refusals word it (`example`: what ranx writes). */
interface Decoding {
  handler: CborNestedHandler
  words: CborNestedWords
  example: string
}

function decode(file: string, cbor: Uint8Array, decoding: Decoding): void {
  const { handler, words, example } = decoding
  try {
    decodeNestedNumbers(cbor, handler, words, MAX_KEY_BYTES)
  } catch (error) {
    if (error instanceof CborShapeError)
      throw new InputError(
        { file },
        `is an LZ4 file whose content is not a ranx {query_id: {doc_id: ${words.value}}} dict: it ${error.message}`,
        `ranx's save_lz4 writes the CBOR of ${example}`
      )
    throw error
  }
}

/** Reads a ranx `.lz4` run into `collector` (one block per query, in stored order). Errors give the entry number (from 1) as the line. */
export async function readRanxLz4Run(file: string, collector: BlockCollector): Promise<void> {
  const cbor = await cborOf(file, 'run')
  let current = ''
  decode(file, cbor, {
    handler: {
      outer: (id, ordinal) => {
        current = id
        collector.startQuery(id, ordinal)
      },
      entry: (doc, score, ordinal) => {
        if (!Number.isFinite(score))
          throw new InputError(
            { file, line: ordinal, queryId: current },
            `the score of document ${quote(doc)} is ${String(score)}`,
            'scores must be finite numbers (a NaN score is a failed computation: fix the run)'
          )
        collector.add(toByteString(doc), score, ordinal)
      }
    },
    words: { outerKey: 'query id', innerKey: 'document id', value: 'score' },
    example: '{"q1": {"doc7": 12.5}}'
  })
}

/** Reads judgments from a ranx-style `.lz4` file (`{query_id: {doc_id: grade}}`). */
export async function readRanxLz4Qrels(file: string): Promise<Qrels> {
  const cbor = await cborOf(file, 'judgments file')
  const builder = new QrelsBuilder(file)
  let current = ''
  decode(file, cbor, {
    handler: {
      outer: (id, ordinal) => {
        current = id
        builder.query(id, ordinal)
      },
      entry: (doc, grade, ordinal) => builder.add(current, doc, grade, ordinal)
    },
    words: { outerKey: 'query id', innerKey: 'document id', value: 'grade' },
    example: '{"q1": {"doc7": 1}}'
  })
  return builder.finish('ranx writes {"query_id": {"doc_id": grade, ...}, ...}')
}
