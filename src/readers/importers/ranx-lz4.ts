import { InputError } from '../../errors.js'
import { RUN_WITHOUT_JUDGMENTS } from '../../util/input-hints.js'

/**
 * ranx's `.lz4` runs and judgments (`Run.save("run.lz4")`: an LZ4 frame around `lz4.frame.compress` of the
 * CBOR of `{query_id: {doc_id: score}}`, ranx 0.3.21 `io.save_lz4`) are recognised by the frame magic, whatever the
 * file's name, and **refused** with the conversion that ranx itself does in one line. Not read: the npm LZ4
 * decoders keep none of the gate's caps (lz4js 0.2.0, the one pure-JavaScript frame decoder, checks no checksum,
 * drops output past its buffer silently while it goes on decoding: 3.0 s for a 4 MiB file that claims 1 GiB, so a
 * minute-scale loop at the file cap; the others are native modules), and an own decoder of LZ4, xxHash32 and CBOR
 * (568 lines) for one format is more than the format is worth. The formats ranx converts to are read streaming,
 * in less memory than the whole-file `.lz4` needed (docs/importers.md).
 */

/** The first four bytes of an LZ4 frame (0x184D2204, little-endian). */
export const LZ4_MAGIC = [0x04, 0x22, 0x4d, 0x18] as const

const NOT_READ = 'is a ranx .lz4 file (an LZ4 frame), which is not read'
const CONVERT_RUN = 'convert it with ranx: Run.from_file("run.lz4").save("run.trec") (or "run.json"), read streaming'
const CONVERT_QRELS =
  'convert it with ranx: Qrels(ranx.io.load_lz4("qrels.lz4")).save("qrels.trec") (or "qrels.json"), read streaming'

/** The refusal of a `.lz4` file given as a run (`what: 'run'`), as judgments, or where per-query rows are read. */
export function refuseRanxLz4(file: string, what: 'run' | 'qrels' | 'rows'): InputError {
  if (what === 'rows')
    return new InputError(
      { file },
      `this looks like a ranx .lz4 run (an LZ4 frame), not per-query rows; .lz4 files are not read`,
      `${CONVERT_RUN}; then ${RUN_WITHOUT_JUDGMENTS}`
    )
  return new InputError({ file }, NOT_READ, what === 'run' ? CONVERT_RUN : CONVERT_QRELS)
}
