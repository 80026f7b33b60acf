import { InputError } from '../errors.js'
import { checkDocIdLength, checkQueryIdLength } from './field-caps.js'
import { fromByteString } from '../util/order.js'
import { quote } from '../util/show.js'

/**
 * Turns a run's lines into per-query blocks. In `stream` mode a query is handed over as soon as its block of
 * consecutive lines ends, so memory holds one query at a time; if a query id shows up again after its block
 * ended, the run is not grouped and {@link NotGroupedSignal} is thrown so the caller can re-read the file in
 * `buffer` mode, which keeps every query's documents until the end (memory grows with the run's size).
 */

/** One query's documents as read (document ids are byte strings, scores parallel). */
export interface RunBlock {
  id: string
  /** Line where the query's first document appears. */
  line: number
  docnos: string[]
  scores: Float64Array
  count: number
  /** Passthrough numeric fields of a per-query JSON record. */
  values: Map<string, number | null> | null
  /** Passthrough string fields of a per-query JSON record. */
  attrs: Map<string, string> | null
}

/** Receives each finished block. In stream mode the block's arrays are reused afterwards: copy what you keep. */
export type BlockHandler = (block: RunBlock) => void

/** Thrown (and caught by the run reader) when a stream-mode read finds the run is not grouped by query. */
export class NotGroupedSignal extends Error {
  constructor(
    readonly queryId: string,
    readonly line: number
  ) {
    super(`query ${queryId} appears again on line ${line} after its block ended`)
  }
}

interface Pending {
  block: RunBlock
  seen: Map<string, number>
}

function newBlock(id: string, line: number): Pending {
  return {
    block: { id, line, docnos: [], scores: new Float64Array(64), count: 0, values: null, attrs: null },
    seen: new Map()
  }
}

/** Collects documents into query blocks; see the module comment for the two modes. */
export class BlockCollector {
  private current: Pending | null = null
  private readonly finished = new Set<string>()
  private readonly buffered = new Map<string, Pending>()
  /** Reused in stream mode. */
  private spare: Pending | null = null
  lines = 0

  constructor(
    private readonly file: string,
    private readonly mode: 'stream' | 'buffer',
    private readonly onBlock: BlockHandler
  ) {}

  /** Starts (or, in buffer mode, resumes) the block of query `id` at `line`. */
  startQuery(id: string, line: number): void {
    if (this.current !== null && this.current.block.id === id) return
    checkQueryIdLength(id, { file: this.file, line })
    if (this.mode === 'buffer') {
      let pending = this.buffered.get(id)
      if (pending === undefined) {
        pending = newBlock(id, line)
        this.buffered.set(id, pending)
      }
      this.current = pending
      return
    }
    this.flush()
    if (this.finished.has(id)) throw new NotGroupedSignal(id, line)
    let pending = this.spare
    if (pending === null) pending = newBlock(id, line)
    else {
      this.spare = null
      const b = pending.block
      b.id = id
      b.line = line
      b.count = 0
      b.docnos.length = 0
      b.values = null
      b.attrs = null
      pending.seen.clear()
    }
    this.current = pending
  }

  /** Adds a document (byte-string id) with its score to the current query. */
  add(docno: string, score: number, line: number): void {
    const pending = this.current!
    const b = pending.block
    checkDocIdLength(docno, { file: this.file, line, queryId: b.id })
    const earlier = pending.seen.get(docno)
    if (earlier !== undefined) {
      throw new InputError(
        { file: this.file, line, queryId: b.id },
        `document ${quote(fromByteString(docno))} appears twice for query ${quote(b.id)} (also on line ${earlier})`,
        'a run lists each document at most once per query; remove the duplicate'
      )
    }
    pending.seen.set(docno, line)
    if (b.count === b.scores.length) {
      const grown = new Float64Array(b.scores.length * 2)
      grown.set(b.scores)
      b.scores = grown
    }
    b.docnos.push(docno)
    b.scores[b.count++] = score
  }

  /** Attaches passthrough fields to the current query. */
  setFields(values: Map<string, number | null>, attrs: Map<string, string>): void {
    const b = this.current!.block
    b.values = values
    b.attrs = attrs
  }

  /** Ends the read: hands over the last block (stream) or every block (buffer). */
  finish(): void {
    if (this.mode === 'buffer') {
      for (const pending of this.buffered.values()) this.onBlock(pending.block)
      this.buffered.clear()
      this.current = null
      return
    }
    this.flush()
  }

  private flush(): void {
    const pending = this.current
    if (pending === null) return
    this.current = null
    this.finished.add(pending.block.id)
    this.onBlock(pending.block)
    this.spare = pending
  }
}
