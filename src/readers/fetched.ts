import { InputError, isInputError } from '../errors.js'

/**
 * A file as the framework fetched it for a reader (src/capabilities/inputs.ts): where to open it, and the name
 * every message and report shows for it. An exam file read at a pull request's base commit is a private
 * temporary copy shown as `path@commit12`; a file read where it was named is shown as named.
 */
export interface FetchedFile {
  /** The local file to open. */
  path: string
  /** The name to show for it, e.g. `eval/qrels.txt@0123456789ab`. */
  name: string
  /** sha256 of its bytes, when the framework hashed it (answer inputs of several files). */
  sha256?: string
}

/** A file read where it was named: shown by its own name. */
export function localFile(path: string): FetchedFile {
  return { path, name: path }
}

/**
 * Reads a fetched file: `read` gets the path to open and the name to give the result; a refusal it raises names
 * the file by its shown name instead of its temporary path (in the message, the hint and `where.file`).
 */
export async function readFetched<T>(file: FetchedFile, read: (path: string, name: string) => Promise<T>): Promise<T> {
  if (file.path === file.name) return read(file.path, file.name)
  try {
    return await read(file.path, file.name)
  } catch (error) {
    throw isInputError(error) ? renamed(error, [file]) : error
  }
}

/**
 * The same refusal with each copy's path replaced by its name. Plain text replacement is exact here: a copy's
 * path is a fresh temporary folder (mkdtemp's random suffix), so it appears in a message only where a reader
 * named that file.
 */
export function renamed(error: InputError, files: readonly FetchedFile[]): InputError {
  const rename = (text: string): string => {
    let out = text
    for (const { path, name } of files) if (path !== name) out = out.split(path).join(name)
    return out
  }
  const where = { ...error.where, ...(error.where.file === undefined ? {} : { file: rename(error.where.file) }) }
  const copy = new InputError(where, rename(error.problem), error.hint === undefined ? undefined : rename(error.hint), {
    code: error.code
  })
  copy.message = rename(error.message)
  return copy
}
