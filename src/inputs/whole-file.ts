import { readFile, stat } from 'node:fs/promises'
import { InputError } from '../errors.js'

/** The file-system error of opening or reading `file`, as the refusal a user can act on (exit 2, never a stack trace). */
export function openError(file: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new InputError({ file }, 'file not found', 'check the path (it is read relative to the working directory)')
  if (code === 'EISDIR') return new InputError({ file }, 'is a directory, not a file', 'name the file itself')
  if (code === 'EACCES') return new InputError({ file }, 'permission denied', 'make the file readable')
  return new InputError({ file }, `cannot be read: ${(error as Error).message}`)
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
 * does not stream (rules, manifests, whole-JSON evaluator exports). The size is checked before reading, so an
 * enormous file costs nothing; a missing, unreadable or directory path, an oversized file and invalid UTF-8
 * are refused by name. Everything per-query or per-document is streamed instead (src/inputs/lines.ts).
 */
export async function readWholeText(file: string, cap: WholeFileLimit): Promise<string> {
  let size: number
  try {
    const s = await stat(file)
    if (s.isDirectory()) throw new InputError({ file }, 'is a directory, not a file', 'name the file itself')
    size = s.size
  } catch (error) {
    if (error instanceof InputError) throw error
    throw openError(file, error)
  }
  if (size > cap.limit) throw new InputError({ file }, `is ${size} bytes; ${cap.what} is read whole and the limit is ${cap.limit}`, cap.hint)
  // stat needs no read permission: an unreadable file fails here, and must say so by name.
  const bytes = await readFile(file).catch((error: unknown) => {
    throw openError(file, error)
  })
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\ufeff/, '')
  } catch {
    throw new InputError({ file }, 'is not valid UTF-8', 'save the file as UTF-8')
  }
}
