import { InputError } from '../errors.js'
import { openError, openReadable } from './whole-file.js'

/**
 * Longest line any reader accepts, in bytes. A per-query JSON line with a long result list is well under a
 * megabyte; a line of hundreds of megabytes without a newline is a broken or hostile file, and buffering it
 * would cost unbounded memory, so it is refused at this cap.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024

export interface LineOptions {
  /** Override {@link MAX_LINE_BYTES} (tests use a small cap). */
  maxLineBytes?: number
  /** The file as refusals name it, when the path read is a copy (a fetched exam file); default: the path. */
  name?: string
}

/** Called once per line with its text (no line terminator, BOM removed), its 1-based number and its length in bytes. */
export type LineHandler = (text: string, line: number, bytes: number) => void

const fatalDecoder = new TextDecoder('utf-8', { fatal: true })

/** Called once per line with the line's bytes, `bytes[start..end)` (terminator and BOM removed), and its 1-based number. */
export type LineBytesHandler = (bytes: Buffer, start: number, end: number, line: number) => void

/**
 * Streams a file line by line as byte ranges of the read buffer, calling `onLine` synchronously so that the
 * hot path has no per-line promise, string or copy (the TREC run reader parses straight from these bytes;
 * {@link forEachLine} decodes them). Accepts LF and CRLF, a UTF-8 byte order mark on the first line and a
 * last line without a newline; refuses over-long lines with the file and line number. Memory is bounded by
 * the read buffer plus the longest line. Devices and sockets are refused (openReadable). Errors thrown by `onLine` pass through unchanged; errors of the file
 * itself become refusals naming it.
 */
export async function forEachLineBytes(
  file: string,
  onLine: LineBytesHandler,
  options: LineOptions = {}
): Promise<number> {
  const cap = options.maxLineBytes ?? MAX_LINE_BYTES
  // The start of a line not yet ended: kept as the chunks it spans and joined once, when its newline arrives,
  // so a long line costs its own bytes once (joining at every chunk would allocate the square of its length).
  let pending: Buffer[] = []
  let pendingBytes = 0
  let lineNo = 0
  const emit = (bytes: Buffer, start: number, end: number): void => {
    lineNo++
    if (end > start && bytes[end - 1] === 0x0d) end--
    if (
      lineNo === 1 &&
      end - start >= 3 &&
      bytes[start] === 0xef &&
      bytes[start + 1] === 0xbb &&
      bytes[start + 2] === 0xbf
    ) {
      start += 3
    }
    if (end - start > cap) tooLong(options.name ?? file, lineNo, cap)
    onLine(bytes, start, end, lineNo)
  }
  const stream = (await openReadable(file)).handle.createReadStream({ highWaterMark: 1 << 20 })
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0
      let nl = chunk.indexOf(0x0a, 0)
      if (pendingBytes > 0) {
        if (nl < 0) {
          if (pendingBytes + chunk.length > cap + 1) tooLong(file, lineNo + 1, cap)
          pending.push(chunk)
          pendingBytes += chunk.length
          continue
        }
        pending.push(chunk.subarray(0, nl))
        const joined: Buffer = Buffer.concat(pending, pendingBytes + nl)
        pending = []
        pendingBytes = 0
        emit(joined, 0, joined.length)
        start = nl + 1
        nl = chunk.indexOf(0x0a, start)
      }
      while (nl >= 0) {
        emit(chunk, start, nl)
        start = nl + 1
        nl = chunk.indexOf(0x0a, start)
      }
      if (start < chunk.length) {
        if (chunk.length - start > cap + 1) tooLong(file, lineNo + 1, cap)
        pending = [Buffer.from(chunk.subarray(start))]
        pendingBytes = chunk.length - start
      }
    }
  } catch (error) {
    // Only the file's own errors (open, read) carry a syscall; anything else came from onLine.
    if ((error as NodeJS.ErrnoException)?.syscall === undefined) throw error
    throw openError(file, error)
  } finally {
    stream.destroy()
  }
  if (pendingBytes > 0) {
    const last = Buffer.concat(pending, pendingBytes)
    emit(last, 0, last.length)
  }
  return lineNo
}

/**
 * Streams a file line by line as text ({@link forEachLineBytes}, each line decoded): ASCII lines take a fast
 * path; invalid UTF-8 is refused with the file and line.
 */
export async function forEachLine(file: string, onLine: LineHandler, options: LineOptions = {}): Promise<number> {
  return forEachLineBytes(
    file,
    (bytes, start, end, line) => onLine(decodeLine(bytes, start, end) ?? refuseNotUtf8(file, line), line, end - start),
    options
  )
}

/** The text of bytes [start, end): ASCII by a fast path, else strict UTF-8; undefined when they are not UTF-8. */
export function decodeLine(bytes: Buffer, start: number, end: number): string | undefined {
  let ascii = true
  for (let i = start; i < end; i++) {
    if (bytes[i] >= 0x80) {
      ascii = false
      break
    }
  }
  if (ascii) return bytes.toString('latin1', start, end)
  try {
    return fatalDecoder.decode(bytes.subarray(start, end))
  } catch {
    return undefined
  }
}

/** The refusal of a line that is not UTF-8. */
export function refuseNotUtf8(file: string, line: number): never {
  throw new InputError({ file, line }, 'is not valid UTF-8', 'save the file as UTF-8')
}

function tooLong(file: string, line: number, cap: number): never {
  throw new InputError(
    { file, line },
    `line is longer than ${cap} bytes (the line-length cap)`,
    'the file is probably truncated, binary or missing newlines; per-query lines are far shorter'
  )
}
