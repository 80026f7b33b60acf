import { readSync } from 'node:fs'
import { withFileSync } from './whole-file.js'
import { isObject, parseJsonWithNonFinite, tryJson } from './json/document.js'

/**
 * What format detection looks at (src/readers/read.ts): a file's name, its first {@link HEAD_BYTES} bytes and
 * the features the registry's sniffs ask about (first character, first line, first JSON record, first key, a
 * header's columns), each computed once and only when asked; the head is read on first use, so a format decided
 * by `--input-format` or by the name alone never opens the file here. A sniff that needs more than the head (a
 * whole JSON document, a Parquet footer, every line of a measure listing) computes it through {@link Probe.memo},
 * so the reader the detection picks gets it without reading the file again.
 */

/** The first four bytes of every Parquet file (and its last four). */
export const PARQUET_MAGIC: readonly number[] = [0x50, 0x41, 0x52, 0x31]

/** How many bytes detection looks at. */
export const HEAD_BYTES = 65536

/** What a probe is made from. */
export interface ProbeInput {
  file: string
  /** The name the file goes by when `file` is a copy of it (a fetched exam or answer file), for the name sniffs. */
  name?: string
  /** The file's first bytes, when the caller already has them; read from the file on first use otherwise. */
  head?: Buffer
  /** The metrics the rules name (long form is told from wide by them). */
  metricFields?: ReadonlySet<string>
  /** `--id-field`, the query id column of exports without `query_id`. */
  idField?: string
}

/** The first line of `text` that is not blank, without its line terminator, or '' (line 0) when there is none. */
export function firstContentLine(text: string): { text: string; line: number } {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '')
    if (line.trim() !== '') return { text: line, line: i + 1 }
  }
  return { text: '', line: 0 }
}

/** The column names of a CSV header line (quotes removed; enough to recognise an export). */
export function csvHeader(line: string): string[] {
  const out: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      out.push(field.trim())
      field = ''
    } else field += c
  }
  out.push(field.trim())
  return out
}

/**
 * For text starting with `{`: the first character of the first key's value (`{"q1": {` gives "{"), or ''
 * when the head does not reach it. Tells a JSON object of objects from a JSON Lines record without
 * parsing the whole document.
 */
export function firstValueStart(head: string): string {
  const m = /^\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*(\S)/.exec(head)
  return m ? m[1] : ''
}

/**
 * For a run whose first non-blank character is `{`: JSON Lines (one record per line, with "query_id") or
 * one ranx / pytrec_eval JSON object `{query_id: {doc_id: score}}`. `head` is the file's start.
 */
export function sniffBraceRun(head: string): 'jsonl' | 'json' {
  const { text } = firstContentLine(head)
  if (text.includes('"query_id"')) return 'jsonl'
  return firstValueStart(head) === '{' ? 'json' : 'jsonl'
}

/** The first {@link HEAD_BYTES} bytes of `file` (fewer when it is shorter); a file that cannot be read is refused by name. */
function readHeadBytes(file: string): Buffer {
  return withFileSync(file, (fd) => {
    const buf = Buffer.alloc(HEAD_BYTES)
    return buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0))
  })
}

/** One file as detection sees it; every feature is computed on first use and kept. */
export class Probe {
  readonly file: string
  readonly name: string | undefined
  readonly metricFields: ReadonlySet<string>
  readonly idField: string | undefined
  private headBytes: Buffer | undefined
  private readonly computed = new Map<string, unknown>()
  private readonly pending = new Map<string, Promise<unknown>>()

  constructor(input: ProbeInput) {
    this.file = input.file
    this.name = input.name
    this.headBytes = input.head?.subarray(0, HEAD_BYTES)
    this.metricFields = input.metricFields ?? new Set()
    this.idField = input.idField
  }

  private once<T>(key: string, compute: () => T): T {
    if (this.computed.has(key)) return this.computed.get(key) as T
    const value = compute()
    this.computed.set(key, value)
    return value
  }

  /** The first {@link HEAD_BYTES} bytes of the file. */
  get bytes(): Buffer {
    this.headBytes ??= readHeadBytes(this.file)
    return this.headBytes
  }

  /** The head as text (UTF-8, byte order mark removed; a character cut by the head's end is replaced). */
  get head(): string {
    return this.once('head', () => this.bytes.toString('utf8').replace(/^\ufeff/, ''))
  }

  /** True when the file's name ends in `.ext` (any case). */
  named(ext: 'csv' | 'tsv'): boolean {
    const pattern = ext === 'csv' ? /\.csv$/i : /\.tsv$/i
    return pattern.test(this.file) || (this.name !== undefined && pattern.test(this.name))
  }

  /** True when the file starts with these bytes (a magic number). */
  startsWith(magic: readonly number[]): boolean {
    const bytes = this.bytes
    return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b)
  }

  /** The first non-blank character of the head, or '' for an empty file. */
  get firstChar(): string {
    return this.once('firstChar', () => /\S/.exec(this.head)?.[0] ?? '')
  }

  /** The first byte after a byte order mark and JSON's white space, as a character ('' when there is none). */
  get firstJsonChar(): string {
    return this.once('firstJsonChar', () => {
      const b = this.bytes
      let i = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0
      while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++
      return i < b.length ? String.fromCharCode(b[i]) : ''
    })
  }

  /** The first non-blank line of the head, and its number. */
  get firstLine(): { text: string; line: number } {
    return this.once('firstLine', () => firstContentLine(this.head))
  }

  /** The first line as a JSON object (Python's bare NaN allowed, a repeated key keeping the last), or undefined. */
  get firstRecord(): Record<string, unknown> | undefined {
    return this.once('firstRecord', () => {
      const text = this.firstLine.text
      const value = tryJson(text) ?? parseJsonWithNonFinite(text)?.value
      return isObject(value) ? value : undefined
    })
  }

  /** The keys of {@link firstRecord} (empty when there is none). */
  get firstRecordKeys(): string[] {
    return this.once('firstRecordKeys', () => Object.keys(this.firstRecord ?? {}))
  }

  /** For a head starting with `{`: its first key as written (escapes kept), or undefined. */
  get firstKey(): string | undefined {
    return this.once('firstKey', () => /^\s*\{\s*"((?:[^"\\]|\\.)*)"/.exec(this.head)?.[1])
  }

  /** {@link firstValueStart} of the head. */
  get firstValueStart(): string {
    return this.once('firstValueStart', () => firstValueStart(this.head))
  }

  /** The first line's CSV columns. */
  get csvHeader(): string[] {
    return this.once('csvHeader', () => csvHeader(this.firstLine.text))
  }

  /** The first line split at tabs, each name trimmed. */
  get tabHeader(): string[] {
    return this.once('tabHeader', () => this.firstLine.text.split('\t').map((h) => h.trim()))
  }

  /**
   * What a sniff computed beyond the head (a whole document, a Parquet footer's columns, a listing's lines), once
   * per probe under `key`: the detection and the reader it picks share it. A refusal thrown while computing it is
   * the file's refusal.
   */
  async memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.computed.has(key)) return this.computed.get(key) as T
    let running = this.pending.get(key) as Promise<T> | undefined
    if (running === undefined) {
      running = compute()
      this.pending.set(key, running)
    }
    const value = await running
    this.computed.set(key, value)
    return value
  }
}
