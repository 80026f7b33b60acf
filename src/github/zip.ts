import { crc32, inflateRawSync } from 'node:zlib'
import { quote } from '../util/show.js'

/** Limits for reading an untrusted archive. */
export interface ZipLimits {
  /** Largest sum of uncompressed sizes accepted (declared and actual). */
  maxTotalBytes: number
  /** Most entries accepted. */
  maxEntries: number
}

/** One regular file of a checked archive; `read()` inflates it (size- and CRC-checked). */
export interface ZipFile {
  name: string
  size: number
  read: () => Uint8Array
}

/** Why an archive was refused (the caller turns it into an InputError naming the artifact). */
export class ZipRefusal extends Error {
  override name = 'ZipRefusal'
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

/**
 * Reads the directory of a ZIP archive (an artifact downloaded from another run, therefore untrusted) and
 * refuses it whole when any entry could escape the extraction folder (absolute path, `..`, backslash, drive
 * letter, NUL), is a symbolic link, is encrypted, uses a method other than stored/deflate, uses ZIP64, or when
 * the entries or their total size exceed the limits. Nothing is written to disk here and nothing in the
 * archive is ever executed; `read()` inflates with a hard output cap, so a zip bomb that lies about its size
 * is stopped at the cap.
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits): ZipFile[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const eocd = findEocd(buf)
  const count = buf.readUInt16LE(eocd + 10)
  const dirSize = buf.readUInt32LE(eocd + 12)
  const dirOffset = buf.readUInt32LE(eocd + 16)
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff)
    throw new ZipRefusal('uses ZIP64, which is not accepted (an artifact this large is beyond the size cap anyway)')
  if (count > limits.maxEntries) throw new ZipRefusal(`has ${count} entries; the limit is ${limits.maxEntries}`)
  if (dirOffset + dirSize > eocd) throw new ZipRefusal('has a central directory that points outside the archive')
  const files: ZipFile[] = []
  let total = 0
  let p = dirOffset
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) throw new ZipRefusal('has a damaged central directory')
    const flags = buf.readUInt16LE(p + 8)
    const method = buf.readUInt16LE(p + 10)
    const crc = buf.readUInt32LE(p + 16)
    const csize = buf.readUInt32LE(p + 20)
    const usize = buf.readUInt32LE(p + 24)
    const nameLen = buf.readUInt16LE(p + 28)
    const extraLen = buf.readUInt16LE(p + 30)
    const commentLen = buf.readUInt16LE(p + 32)
    const external = buf.readUInt32LE(p + 38)
    const local = buf.readUInt32LE(p + 42)
    const rawName = buf.subarray(p + 46, p + 46 + nameLen)
    const name = (flags & 0x800) !== 0 ? rawName.toString('utf8') : rawName.toString('latin1')
    p += 46 + nameLen + extraLen + commentLen
    checkName(name)
    const mode = (external >>> 16) & 0o170000
    if (mode === 0o120000) throw new ZipRefusal(`entry ${quote(name)} is a symbolic link`)
    if (name.endsWith('/')) continue
    if ((flags & 0x1) !== 0) throw new ZipRefusal(`entry ${quote(name)} is encrypted`)
    if (method !== 0 && method !== 8)
      throw new ZipRefusal(
        `entry ${quote(name)} uses compression method ${method} (only stored and deflate are accepted)`
      )
    if (csize === 0xffffffff || usize === 0xffffffff || local === 0xffffffff)
      throw new ZipRefusal(`entry ${quote(name)} uses ZIP64`)
    total += usize
    if (total > limits.maxTotalBytes)
      throw new ZipRefusal(`unpacks to more than ${limits.maxTotalBytes} bytes (the size cap)`)
    files.push({ name, size: usize, read: () => readEntry(buf, { name, method, crc, csize, usize, local }) })
  }
  const names = new Set<string>()
  for (const f of files) {
    const key = f.name.toLowerCase()
    if (names.has(key)) throw new ZipRefusal(`has two entries named ${quote(f.name)}`)
    names.add(key)
  }
  return files
}

/** Refuses any entry name that is not a plain relative path staying inside the extraction folder. */
export function checkName(name: string): void {
  const bad =
    name === '' ||
    name.includes('\0') ||
    name.includes('\\') ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').some((part, i, all) => part === '..' || part === '.' || (part === '' && i < all.length - 1))
  if (bad) throw new ZipRefusal(`entry ${quote(name)} would be written outside the target folder`)
}

function findEocd(buf: Buffer): number {
  const stop = Math.max(0, buf.length - 22 - 0xffff)
  for (let i = buf.length - 22; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD) return i
  }
  throw new ZipRefusal('is not a ZIP archive (no end-of-central-directory record)')
}

interface EntryInfo {
  name: string
  method: number
  crc: number
  csize: number
  usize: number
  local: number
}

function readEntry(buf: Buffer, e: EntryInfo): Uint8Array {
  if (e.local + 30 > buf.length || buf.readUInt32LE(e.local) !== LOCAL)
    throw new ZipRefusal(`entry ${quote(e.name)} has a damaged local header`)
  const start = e.local + 30 + buf.readUInt16LE(e.local + 26) + buf.readUInt16LE(e.local + 28)
  if (start + e.csize > buf.length) throw new ZipRefusal(`entry ${quote(e.name)} runs past the end of the archive`)
  const data = buf.subarray(start, start + e.csize)
  let out: Buffer
  if (e.method === 0) out = data
  else {
    try {
      out = inflateRawSync(data, { maxOutputLength: Math.max(1, e.usize) })
    } catch {
      throw new ZipRefusal(`entry ${quote(e.name)} does not inflate to its declared ${e.usize} bytes`)
    }
  }
  if (out.length !== e.usize)
    throw new ZipRefusal(`entry ${quote(e.name)} is ${out.length} bytes, not the declared ${e.usize}`)
  if (crc32(out) >>> 0 !== e.crc >>> 0) throw new ZipRefusal(`entry ${quote(e.name)} fails its CRC check`)
  return out
}
