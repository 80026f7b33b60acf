import { xxhash32 } from './xxhash32.js'

/**
 * A bounded decoder of the LZ4 frame format (lz4 `doc/lz4_Frame_format.md` v1.6.x, and the block format of
 * `doc/lz4_Block_format.md`), for ranx's `.lz4` runs: `lz4.frame.open(path, "wb")` around
 * `lz4.frame.compress(cbor2.dumps(run))`. Written here rather than taken from npm because the need is small
 * (decode only, no dictionaries) and every limit must be ours: the output never grows past `cap` bytes (a
 * 1 KiB frame can claim gigabytes), every length and match offset is checked against what has been read, and
 * the header, block and content checksums (xxHash32) are verified, so a damaged file is refused, never decoded
 * into other numbers. Concatenated frames are decoded one after the other (the format allows it); skippable
 * frames are skipped. Iterative throughout: no input can make it recurse.
 */

/** The first four bytes of an LZ4 frame (0x184D2204, little-endian). */
export const LZ4_MAGIC = [0x04, 0x22, 0x4d, 0x18] as const

/** Why a frame cannot be decoded (the caller turns it into the refusal with the file and what to do). */
export class Lz4FrameError extends Error {
  /** True when the content is (or claims to be) over the cap, not damaged: the remedy differs. */
  constructor(
    message: string,
    readonly tooLarge = false
  ) {
    super(message)
  }
}

/** Largest block each BD code allows (4: 64 KiB ... 7: 4 MiB). */
const BLOCK_MAX: Record<number, number> = { 4: 1 << 16, 5: 1 << 18, 6: 1 << 20, 7: 1 << 22 }

/** True when `bytes` starts with the LZ4 frame magic. */
export function startsWithLz4Magic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && LZ4_MAGIC.every((b, i) => bytes[i] === b)
}

/** A growable output that refuses to grow past its cap. */
class Output {
  buf = new Uint8Array(1 << 16)
  length = 0

  constructor(readonly cap: number) {}

  ensure(extra: number): void {
    const need = this.length + extra
    if (need > this.cap) throw new Lz4FrameError(`decompresses to more than ${this.cap} bytes (the limit)`, true)
    if (need <= this.buf.length) return
    let size = this.buf.length
    while (size < need) size *= 2
    const grown = new Uint8Array(Math.min(size, this.cap))
    grown.set(this.buf.subarray(0, this.length))
    this.buf = grown
  }
}

function u32(b: Uint8Array, i: number): number {
  return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0
}

/** One compressed block: `src[start, end)`. */
interface Block {
  src: Uint8Array
  start: number
  end: number
}

/**
 * Decodes one LZ4 block into `out`. Matches may reach back to `windowStart` (the start of the frame's output for
 * linked blocks, of the block for independent ones), never before.
 */
function decodeBlock(block: Block, out: Output, windowStart: number): void {
  const { src, start, end } = block
  let ip = start
  for (;;) {
    if (ip >= end) throw new Lz4FrameError(`block at byte ${start} ends inside a sequence`)
    const token = src[ip++]
    let literals = token >>> 4
    if (literals === 15) {
      let b: number
      do {
        if (ip >= end) throw new Lz4FrameError(`block at byte ${start} ends inside a literal length`)
        b = src[ip++]
        literals += b
      } while (b === 255)
    }
    if (ip + literals > end)
      throw new Lz4FrameError(`block at byte ${start} has ${literals} literals but ends before them`)
    out.ensure(literals)
    out.buf.set(src.subarray(ip, ip + literals), out.length)
    out.length += literals
    ip += literals
    if (ip === end) return // the last sequence holds literals only
    if (ip + 2 > end) throw new Lz4FrameError(`block at byte ${start} ends inside a match offset`)
    const offset = src[ip] | (src[ip + 1] << 8)
    ip += 2
    if (offset === 0 || offset > out.length - windowStart)
      throw new Lz4FrameError(`block at byte ${start} has a match offset ${offset} before the start of the data`)
    let match = (token & 15) + 4
    if ((token & 15) === 15) {
      let b: number
      do {
        if (ip >= end) throw new Lz4FrameError(`block at byte ${start} ends inside a match length`)
        b = src[ip++]
        match += b
      } while (b === 255)
    }
    out.ensure(match)
    const buf = out.buf
    let from = out.length - offset
    let to = out.length
    if (offset >= match) buf.copyWithin(to, from, from + match)
    else for (const stop = to + match; to < stop;) buf[to++] = buf[from++]
    out.length += match
  }
}

/** Decodes the frame starting at `pos`; returns where the next frame starts. */
function decodeFrame(src: Uint8Array, pos: number, out: Output): number {
  const headerStart = pos + 4
  if (src.length < headerStart + 3) throw new Lz4FrameError('is cut short inside the frame header')
  const flg = src[headerStart]
  const bd = src[headerStart + 1]
  if (flg >>> 6 !== 1) throw new Lz4FrameError(`has frame version ${flg >>> 6}, not 1`)
  if ((flg & 0x02) !== 0 || (bd & 0x8f) !== 0) throw new Lz4FrameError('sets reserved bits of the frame header')
  const independent = (flg & 0x20) !== 0
  const blockChecksum = (flg & 0x10) !== 0
  const hasSize = (flg & 0x08) !== 0
  const contentChecksum = (flg & 0x04) !== 0
  if ((flg & 0x01) !== 0)
    throw new Lz4FrameError('needs a dictionary (a dictionary ID is set), which this reader does not have')
  const blockMax = BLOCK_MAX[(bd >>> 4) & 7]
  if (blockMax === undefined) throw new Lz4FrameError(`has an invalid block size code ${(bd >>> 4) & 7}`)
  let i = headerStart + 2
  let declared: number | undefined
  if (hasSize) {
    if (src.length < i + 9) throw new Lz4FrameError('is cut short inside the frame header')
    const low = u32(src, i)
    const high = u32(src, i + 4)
    declared = high * 2 ** 32 + low
    i += 8
  }
  if (src.length < i + 1) throw new Lz4FrameError('is cut short inside the frame header')
  if (((xxhash32(src, headerStart, i) >>> 8) & 0xff) !== src[i])
    throw new Lz4FrameError('has a wrong header checksum (the file is damaged)')
  i++
  const frameOut = out.length
  if (declared !== undefined && frameOut + declared > out.cap)
    throw new Lz4FrameError(`declares ${declared} bytes of content, more than the limit of ${out.cap}`, true)
  for (;;) {
    if (src.length < i + 4) throw new Lz4FrameError('is cut short: the frame has no end mark')
    const word = u32(src, i)
    i += 4
    if (word === 0) break
    const raw = (word & 0x80000000) !== 0
    const size = word & 0x7fffffff
    if (size > blockMax)
      throw new Lz4FrameError(`has a block of ${size} bytes at byte ${i - 4}, over the frame's block size ${blockMax}`)
    if (src.length < i + size + (blockChecksum ? 4 : 0))
      throw new Lz4FrameError(`is cut short inside the block at byte ${i - 4}`)
    if (blockChecksum && xxhash32(src, i, i + size) !== u32(src, i + size))
      throw new Lz4FrameError(`has a wrong checksum on the block at byte ${i - 4} (the file is damaged)`)
    if (raw) {
      out.ensure(size)
      out.buf.set(src.subarray(i, i + size), out.length)
      out.length += size
    } else {
      decodeBlock({ src, start: i, end: i + size }, out, independent ? out.length : frameOut)
    }
    i += size + (blockChecksum ? 4 : 0)
  }
  if (contentChecksum) {
    if (src.length < i + 4) throw new Lz4FrameError('is cut short inside the content checksum')
    if (xxhash32(out.buf, frameOut, out.length) !== u32(src, i))
      throw new Lz4FrameError('has a wrong content checksum (the file is damaged)')
    i += 4
  }
  if (declared !== undefined && out.length - frameOut !== declared)
    throw new Lz4FrameError(`declares ${declared} bytes of content but holds ${out.length - frameOut}`)
  return i
}

/**
 * Decompresses every frame of `src` (an LZ4 frame file, or a buffer that `lz4.frame.compress` returned) into
 * one buffer of at most `cap` bytes; throws {@link Lz4FrameError} on anything malformed.
 */
export function decompressLz4Frames(src: Uint8Array, cap: number): Uint8Array {
  const out = new Output(cap)
  let pos = 0
  let frames = 0
  while (pos < src.length) {
    if (src.length - pos < 4) throw new Lz4FrameError(`has ${src.length - pos} stray bytes after the last frame`)
    const magic = u32(src, pos)
    if (magic >>> 4 === 0x184d2a5) {
      // a skippable frame: magic, 4-byte size, data (carries nothing to decode)
      if (src.length - pos < 8) throw new Lz4FrameError('is cut short inside a skippable frame')
      pos += 8 + u32(src, pos + 4)
      if (pos > src.length) throw new Lz4FrameError('is cut short inside a skippable frame')
      continue
    }
    if (magic !== 0x184d2204)
      throw new Lz4FrameError(
        frames === 0
          ? 'does not start with the LZ4 frame magic 04 22 4D 18'
          : `has bytes that are not an LZ4 frame at byte ${pos}`
      )
    pos = decodeFrame(src, pos, out)
    frames++
  }
  if (frames === 0) throw new Lz4FrameError('holds no LZ4 frame')
  return out.buf.subarray(0, out.length)
}
