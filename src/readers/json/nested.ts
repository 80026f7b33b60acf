import { readSync } from 'node:fs'
import { InputError } from '../../errors.js'
import { withFileSync } from '../whole-file.js'
import { quote } from '../../util/show.js'
import { CUT, numberEnd, numberValue, plainStringEnd } from './tokens.js'

/**
 * Streaming reader for the one JSON shape that Python IR tools dump whole: an object of objects of numbers,
 * `{"q1": {"d7": 3.2, "d9": 1.5}, "q2": {...}}` (ranx and pytrec_eval runs and qrels, pytrec_eval's
 * per-query results). `json.dump` writes it on one line, so a line-based reader would hit the line cap on a
 * large run, and `JSON.parse` would build the whole object graph (gigabytes for a 7M-entry run) and lose
 * line numbers. This reads the file in a window of 1 MiB, lexes its tokens with the one JSON tokenizer
 * (./tokens.ts), keeps one key at a time, and reports every refusal
 * with its line. A repeated key is refused at both levels (a query twice, a document or measure twice in a
 * query: Python cannot write them, and a hand-made file that repeats one would otherwise be merged or
 * overwritten silently), as in every JSON the gate reads (src/readers/json/document.ts). Every token is capped
 * ({@link MAX_KEY_BYTES}, {@link MAX_NUMBER_CHARS}), so a 600 MB key is refused at the cap, at its line, in
 * bounded memory, instead of being collected whole.
 */

/**
 * Longest key (query id, document id, measure name) in bytes. Real ids are tens of bytes; 64 KiB leaves
 * room for ids that are whole question texts and bounds the memory one string can take (the only strings
 * of this format are keys).
 */
export const MAX_KEY_BYTES = 64 * 1024

/** Longest number token (characters): a double needs at most 17 significant digits plus sign and exponent. */
const MAX_NUMBER_CHARS = 64

/** Receives the entries in file order. */
export interface NestedHandler {
  /** A new outer key (query id) on `line`. */
  outer(key: string, line: number): void
  /** One inner key (document id or measure name) with its number, on `line`. */
  entry(key: string, value: number, line: number): void
  /**
   * An inner key whose value is `null` or Python's bare `NaN` / `Infinity` / `-Infinity`. With this handler the
   * reader passes them on (per-query rows: a measure the rules do not read is not read); without it they are
   * refused (a run's score, a judgment's grade).
   */
  notNumber?(key: string, token: NotNumber, line: number): void
}

/** The tokens {@link NestedHandler.notNumber} receives. */
export type NotNumber = 'null' | 'NaN' | 'Infinity' | '-Infinity'

/** Words for the messages: what the file is and what its values are. */
export interface NestedWords {
  /** e.g. "a ranx / pytrec_eval run". */
  what: string
  /** e.g. `{"q1": {"doc7": 12.5}}` */
  example: string
  /** e.g. "document id", "measure". */
  innerKey: string
  /** e.g. "score", "grade". */
  value: string
}

/** What a read found. */
export interface NestedSummary {
  outerKeys: number
  entries: number
}

const BLOCK = 1 << 20
const fatal = new TextDecoder('utf-8', { fatal: true })

/**
 * A window over a file read with `readSync` (at most one block in memory): tokens are lexed from its bytes by the
 * JSON tokenizer (./tokens.ts) once {@link ensure} has put a whole capped token in it; `peek` / `next` serve the
 * structure between tokens and the slow path of strings with escapes or non-ASCII bytes.
 */
class Cursor {
  readonly buf = Buffer.allocUnsafe(BLOCK)
  /** Bytes of a string read by the slow path (grown on demand, reused across strings). */
  scratch = Buffer.allocUnsafe(256)
  pos = 0
  end = 0
  private eof = false
  line = 1

  constructor(private readonly fd: number) {}

  /** Makes at least `n` (at most one block) unread bytes available from `pos`, fewer only at the end of the file. */
  ensure(n: number): void {
    if (this.end - this.pos >= n || this.eof) return
    if (this.pos > 0) {
      this.buf.copy(this.buf, 0, this.pos, this.end)
      this.end -= this.pos
      this.pos = 0
    }
    while (this.end < n && !this.eof) {
      const got = readSync(this.fd, this.buf, this.end, BLOCK - this.end, null)
      if (got === 0) this.eof = true
      else this.end += got
    }
  }

  peek(): number {
    if (this.pos < this.end) return this.buf[this.pos]
    this.ensure(1)
    return this.pos < this.end ? this.buf[this.pos] : -1
  }

  next(): number {
    const c = this.peek()
    if (c >= 0) this.pos++
    return c
  }

  skipSpace(): void {
    for (;;) {
      const { buf, end } = this
      let pos = this.pos
      while (pos < end) {
        const c = buf[pos]
        if (c === 0x20 || c === 0x09 || c === 0x0d) pos++
        else if (c === 0x0a) {
          pos++
          this.line++
        } else break
      }
      this.pos = pos
      if (pos < end) return
      this.ensure(1)
      if (this.pos >= this.end) return
    }
  }
}

/**
 * Reads `{outer: {inner: number}}` from `file`, calling `handler` for each key in file order. Refuses, with
 * the line: another shape, a value that is not a finite JSON number (NaN, Infinity, null, a quoted number),
 * an empty key, a repeated outer key, invalid UTF-8 and text after the object.
 */
export function readNestedNumbers(file: string, handler: NestedHandler, words: NestedWords): NestedSummary {
  return withFileSync(file, (fd) => parse(new Cursor(fd), file, handler, words))
}

function parse(cur: Cursor, file: string, handler: NestedHandler, words: NestedWords): NestedSummary {
  const reading: Reading = { file, words, passOn: handler.notNumber !== undefined }
  const fail = (message: string, hint?: string): never => {
    throw new InputError(
      { file, line: cur.line },
      message,
      hint ?? `${words.what} is one JSON object such as ${words.example}`
    )
  }
  // UTF-8 byte order mark
  if (cur.peek() === 0xef) {
    cur.next()
    if (cur.next() !== 0xbb || cur.next() !== 0xbf) fail('is not valid UTF-8', 'save the file as UTF-8')
  }
  cur.skipSpace()
  if (cur.next() !== 0x7b) fail(`is not ${words.what}: it does not start with "{"`)
  const seen = new Map<string, number>()
  // the inner keys of the current query, with their lines (cleared for each query)
  const innerSeen = new Map<string, number>()
  let entries = 0
  cur.skipSpace()
  if (cur.peek() === 0x7d) fail('is an empty JSON object (no queries)', 'write at least one query')
  for (;;) {
    cur.skipSpace()
    const line = cur.line
    if (cur.peek() !== 0x22) fail(`expected a query id in double quotes, found ${describe(cur.peek())}`)
    const key = readString(cur, file)
    if (key === '') fail('a query id is the empty string', 'every query needs a non-empty id')
    const earlier = seen.get(key)
    if (earlier !== undefined)
      fail(
        `query ${quote(key)} appears twice (also on line ${earlier})`,
        'each query appears once; merge or rename the repeats'
      )
    seen.set(key, line)
    innerSeen.clear()
    cur.skipSpace()
    if (cur.next() !== 0x3a) fail(`expected ":" after ${quote(key)}`)
    cur.skipSpace()
    if (cur.peek() !== 0x7b) {
      fail(
        `the value of query ${quote(key)} is ${valueKind(cur.peek())}, not an object of ${words.innerKey}s`,
        `write ${words.example}`
      )
    }
    cur.next()
    handler.outer(key, line)
    cur.skipSpace()
    if (cur.peek() === 0x7d) cur.next()
    else {
      for (;;) {
        cur.skipSpace()
        const innerLine = cur.line
        if (cur.peek() !== 0x22) fail(`expected a ${words.innerKey} in double quotes, found ${describe(cur.peek())}`)
        const inner = readString(cur, file)
        if (inner === '')
          fail(`an empty ${words.innerKey} in query ${quote(key)}`, `every ${words.innerKey} is a non-empty string`)
        const innerEarlier = innerSeen.get(inner)
        if (innerEarlier !== undefined) {
          fail(
            `${words.innerKey} ${quote(inner)} appears twice in query ${quote(key)} (also on line ${innerEarlier}; JSON would silently keep the last)`,
            `write each ${words.innerKey} once per query`
          )
        }
        innerSeen.set(inner, innerLine)
        cur.skipSpace()
        if (cur.next() !== 0x3a) fail(`expected ":" after ${quote(inner)}`)
        cur.skipSpace()
        const value = readNumber(cur, reading, inner, key)
        if (typeof value === 'number') handler.entry(inner, value, innerLine)
        else handler.notNumber?.(inner, value, innerLine)
        entries++
        cur.skipSpace()
        const c = cur.next()
        if (c === 0x2c) continue
        if (c === 0x7d) break
        fail(`expected "," or "}" in query ${quote(key)}, found ${describe(c)}`)
      }
    }
    cur.skipSpace()
    const c = cur.next()
    if (c === 0x2c) continue
    if (c === 0x7d) break
    fail(`expected "," or "}" after query ${quote(key)}, found ${describe(c)}`)
  }
  cur.skipSpace()
  if (cur.peek() !== -1)
    fail(
      `text after the end of the JSON object (${describe(cur.peek())})`,
      'the file holds one JSON object; is it JSON Lines or two objects concatenated?'
    )
  return { outerKeys: seen.size, entries }
}

function describe(c: number): string {
  if (c < 0) return 'the end of the file'
  if (c >= 0x20 && c < 0x7f) return JSON.stringify(String.fromCharCode(c))
  return `byte 0x${c.toString(16).padStart(2, '0')}`
}

function valueKind(c: number): string {
  if (c === 0x5b) return 'an array'
  if (c === 0x22) return 'a string'
  if (c === 0x6e) return 'null'
  if (c === 0x74 || c === 0x66) return 'a boolean'
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return 'a number'
  return describe(c)
}

/** JSON's one-character escapes (the character after the backslash) and, at the same place, what each stands for. */
const ESCAPED = '"\\/bfnrt'
const ESCAPED_AS = '"\\/\b\f\n\r\t'

/** Reads a JSON string (cursor on the opening quote), decoding escapes and validating UTF-8. */
function readString(cur: Cursor, file: string): string {
  cur.next()
  // The fast path: a plain string (printable ASCII, no escape) read from the window in one scan.
  cur.ensure(MAX_KEY_BYTES + 1)
  const from = cur.pos
  const limit = Math.min(cur.end, from + MAX_KEY_BYTES + 1)
  const close = plainStringEnd(cur.buf, from, limit)
  if (close >= 0) {
    cur.pos = close + 1
    return cur.buf.toString('latin1', from, close)
  }
  if (close === CUT && limit === from + MAX_KEY_BYTES + 1)
    tooLongKey(file, cur.line, cur.buf.toString('latin1', from, from + 40))
  // An escape, a byte the plain path does not take, or the end of the file: byte by byte from the string's start.
  let n = 0
  let ascii = true
  const push = (b: number): void => {
    if (n === MAX_KEY_BYTES) tooLongKey(file, cur.line, cur.scratch.toString('utf8', 0, 40))
    if (n === cur.scratch.length) {
      const grown = Buffer.allocUnsafe(cur.scratch.length * 2)
      cur.scratch.copy(grown, 0, 0, n)
      cur.scratch = grown
    }
    cur.scratch[n++] = b
  }
  const pushText = (text: string): void => {
    for (const b of Buffer.from(text, 'utf8')) push(b)
    ascii = false
  }
  const bad = (message: string): never => {
    throw new InputError({ file, line: cur.line }, message, 'the file is not valid JSON')
  }
  for (;;) {
    const c = cur.next()
    if (c < 0) bad('a string is never closed (the file ends inside quotes)')
    if (c === 0x22) break
    if (c < 0x20) bad('a control character (such as a line break) inside a string')
    if (c !== 0x5c) {
      if (c >= 0x80) ascii = false
      push(c)
      continue
    }
    const e = cur.next()
    const simple = e < 0 ? -1 : ESCAPED.indexOf(String.fromCharCode(e))
    if (simple >= 0) {
      push(ESCAPED_AS.charCodeAt(simple))
      continue
    }
    if (e !== 0x75) bad(`an invalid escape "\\${e < 0 ? '' : String.fromCharCode(e)}" in a string`)
    let unit = readHex4(cur, bad)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      if (cur.next() !== 0x5c || cur.next() !== 0x75) bad('an unpaired surrogate escape (\\ud800-\\udbff) in a string')
      const low = readHex4(cur, bad)
      if (low < 0xdc00 || low > 0xdfff) bad('an unpaired surrogate escape in a string')
      unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
    } else if (unit >= 0xdc00 && unit <= 0xdfff) bad('an unpaired surrogate escape (\\udc00-\\udfff) in a string')
    if (unit < 0x80) push(unit)
    else pushText(String.fromCodePoint(unit))
  }
  if (ascii) return cur.scratch.toString('latin1', 0, n)
  try {
    return fatal.decode(cur.scratch.subarray(0, n))
  } catch {
    throw new InputError({ file, line: cur.line }, 'is not valid UTF-8', 'save the file as UTF-8')
  }
}

/** The refusal of a key over {@link MAX_KEY_BYTES}, naming how it starts. */
function tooLongKey(file: string, line: number, start: string): never {
  throw new InputError(
    { file, line },
    `a key is longer than ${MAX_KEY_BYTES} bytes (it starts with ${quote(start)})`,
    'query ids, document ids and measure names are short strings; is this the right file?'
  )
}

function readHex4(cur: Cursor, bad: (m: string) => never): number {
  let v = 0
  for (let i = 0; i < 4; i++) {
    const c = cur.next()
    const d =
      c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1
    if (d < 0) bad('an invalid \\u escape in a string')
    v = v * 16 + d
  }
  return v
}

/** `score of "d7" in query "q1"`: built only for a refusal, as the hot path reads millions of numbers. */
function valueOf(words: NestedWords, inner: string, key: string): string {
  return `${words.value} of ${quote(inner)} in query ${quote(key)}`
}

/** What {@link readNumber} needs of the read: the file and words for its refusals, and whether non-numbers pass on. */
interface Reading {
  file: string
  words: NestedWords
  /** Pass `null` and Python's non-finite words on as tokens (the handler has notNumber). */
  passOn: boolean
}

/**
 * Reads a bare token up to the next delimiter and requires a finite JSON number; with `passOn`, `null` and Python's
 * non-finite words are returned as tokens for the handler to decide.
 */
function readNumber(cur: Cursor, reading: Reading, inner: string, key: string): number | NotNumber {
  const { file, words, passOn } = reading
  const line = cur.line
  const first = cur.peek()
  if (first === 0x22 || first === 0x7b || first === 0x5b) {
    throw new InputError(
      { file, line },
      `the ${valueOf(words, inner, key)} is ${valueKind(first)}, not a number`,
      `write each ${words.value} as a JSON number without quotes`
    )
  }
  // The token runs to the next delimiter; it is lexed from the window (the cap bounds what must be in it).
  cur.ensure(MAX_NUMBER_CHARS + 1)
  const { buf } = cur
  const from = cur.pos
  const limit = Math.min(cur.end, from + MAX_NUMBER_CHARS + 1)
  let to = from
  while (to < limit) {
    const c = buf[to]
    if (c === 0x2c || c === 0x7d || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) break
    to++
  }
  if (to - from > MAX_NUMBER_CHARS) {
    throw new InputError(
      { file, line },
      `the ${valueOf(words, inner, key)} is longer than ${MAX_NUMBER_CHARS} characters (${quote(buf.toString('latin1', from, from + MAX_NUMBER_CHARS), 20)})`,
      `write each ${words.value} as a JSON number such as 12.5`
    )
  }
  cur.pos = to
  if (numberEnd(buf, from, to) === to) {
    const value = numberValue(buf, from, to)
    if (!Number.isFinite(value))
      throw new InputError(
        { file, line },
        `the ${valueOf(words, inner, key)} ${buf.toString('latin1', from, to)} overflows to infinity`,
        'write a finite number'
      )
    return value
  }
  const text = buf.toString('latin1', from, to)
  if (passOn && (text === 'null' || text === 'NaN' || text === 'Infinity' || text === '-Infinity')) return text
  if (text === 'NaN' || text === 'Infinity' || text === '-Infinity') {
    throw new InputError(
      { file, line },
      `the ${valueOf(words, inner, key)} is ${text}`,
      `Python's json.dump writes NaN for a failed computation; fix or drop that entry (the gate never compares NaN)`
    )
  }
  if (text === 'null') {
    throw new InputError(
      { file, line },
      `the ${valueOf(words, inner, key)} is null`,
      `every ${words.value} must be a number (orjson, which ranx uses, writes NaN as null)`
    )
  }
  throw new InputError(
    { file, line },
    `the ${valueOf(words, inner, key)} is ${text === '' ? 'missing' : quote(text)}, not a JSON number`,
    `write each ${words.value} as a JSON number such as 12.5`
  )
}
