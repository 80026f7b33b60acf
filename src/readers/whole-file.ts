import { closeSync, openSync, type Stats } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { InputError } from '../errors.js'

/** The file-system error of opening or reading `file`, as the refusal a user can act on (exit 2, never a stack trace). */
export function openError(file: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT')
    return new InputError({ file }, 'file not found', 'check the path (it is read relative to the working directory)', {
      code: 'not_found'
    })
  if (code === 'EISDIR') return new InputError({ file }, 'is a directory, not a file', 'name the file itself')
  if (code === 'EACCES') return new InputError({ file }, 'permission denied', 'make the file readable')
  if (code === 'ESPIPE')
    return new InputError(
      { file },
      'is a pipe, and this input is read twice (its format is detected first)',
      'write it to a regular file first'
    )
  return new InputError({ file }, `cannot be read: ${(error as Error).message}`)
}

/**
 * Runs `use` on `file` opened for synchronous reads and closes it whatever happens. A file-system error of opening
 * or reading it is the refusal naming the file ({@link openError}); anything else `use` throws passes through.
 */
export function withFileSync<T>(file: string, use: (fd: number) => T): T {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch (error) {
    throw openError(file, error)
  }
  try {
    return use(fd)
  } catch (error) {
    // a system error reading the file (EISDIR, EIO) is the file's; Node's own ERR_* (a bug here) is not
    if (!(error instanceof InputError) && typeof (error as NodeJS.ErrnoException).errno === 'number')
      throw openError(file, error)
    throw error
  } finally {
    closeSync(fd)
  }
}

/** What a capped whole-file read is for, so its refusals say what the file should have been. */
export interface WholeFileLimit {
  /** Largest size read, in bytes. */
  limit: number
  /** The kind of file, for the message: "a rules file", "a manifest", "a ragas export". */
  what: string
  /** What to do when the file is larger. */
  hint: string
}

/**
 * Reads a small file whole as UTF-8 text (byte order mark removed): the one way the gate reads the files it
 * does not stream (rules, manifests, whole-JSON evaluator exports). A regular file larger than the cap is
 * refused from its size before anything is read; whatever the size says, at most `limit + 1` bytes are ever
 * read, because devices report a size of 0 (`--rules /dev/zero` grew to 14.8 GB before). Pipes (a FIFO, a
 * shell's `<(...)`) are read under the same cap; character and block devices and sockets are refused
 * ({@link refuseSpecialFile}). A missing, unreadable or directory path and invalid UTF-8 are refused by name.
 * Everything per-query or per-document is streamed instead (src/readers/lines.ts).
 */
export async function readWholeText(file: string, cap: WholeFileLimit): Promise<string> {
  const { handle, stats: s } = await openReadable(file)
  let bytes: Buffer
  try {
    if (s.size > cap.limit)
      throw new InputError(
        { file },
        `is ${s.size} bytes; ${cap.what} is read whole and the limit is ${cap.limit}`,
        cap.hint
      )
    bytes = await readAtMost(handle, file, cap.limit + 1)
    if (bytes.length > cap.limit)
      throw new InputError(
        { file },
        `is larger than ${cap.limit} bytes; ${cap.what} is read whole and the limit is ${cap.limit}`,
        cap.hint
      )
  } finally {
    await handle.close().catch(() => undefined)
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\ufeff/, '')
  } catch {
    throw new InputError({ file }, 'is not valid UTF-8', 'save the file as UTF-8')
  }
}

/**
 * Opens a file to read it to its end, the one way every reader opens a file: a directory, a device
 * (`/dev/zero` never ends and has no newline) and a socket are refused by name before a byte is read
 * ({@link refuseSpecialFile}); a regular file or a pipe (`<(...)`) is returned open, with its stats. The
 * caller closes the handle.
 */
export async function openReadable(file: string): Promise<{ handle: FileHandle; stats: Stats }> {
  let handle: FileHandle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    throw openError(file, error)
  }
  try {
    const stats = await handle.stat()
    refuseSpecialFile(file, stats)
    return { handle, stats }
  } catch (error) {
    await handle.close().catch(() => undefined)
    throw error instanceof InputError ? error : openError(file, error)
  }
}

/**
 * Refuses what is not a file the gate can read to its end: a directory, a character or block device
 * (`/dev/zero`, `/dev/urandom` never end, and report a size of 0 so a size cap cannot see them) and a socket.
 * A FIFO is allowed: a shell's process substitution (`--rules <(git show base:rules.yml)`) is a legitimate
 * way to pass an input, and every reader stops at its cap whatever a pipe delivers.
 */
export function refuseSpecialFile(file: string, s: Stats): void {
  if (s.isDirectory()) throw new InputError({ file }, 'is a directory, not a file', 'name the file itself')
  if (s.isCharacterDevice() || s.isBlockDevice() || s.isSocket()) {
    throw new InputError(
      { file },
      `is a ${s.isSocket() ? 'socket' : 'device'}, not a regular file`,
      'name a regular file (a pipe such as <(...) is accepted too)'
    )
  }
}

/** Reads from `handle` until its end or until `most` bytes are read, whichever comes first. */
async function readAtMost(handle: FileHandle, file: string, most: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let total = 0
  while (total < most) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, most - total))
    let bytesRead: number
    try {
      ;({ bytesRead } = await handle.read(chunk, 0, chunk.length, null))
    } catch (error) {
      throw openError(file, error)
    }
    if (bytesRead === 0) break
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead))
    total += bytesRead
  }
  return Buffer.concat(chunks, total)
}
