import { InputError, isInputError } from '../errors.js'

/**
 * Exam files (judgments, evaluation set, corpus listing, dataset manifest) read from somewhere else than the path
 * the rules give, under the user's name for them. In a pull request the action reads them at the base commit and
 * writes them to a private temporary folder (src/github/exam-files.ts); the readers open that copy, but what a
 * reviewer reads in the report and in every refusal is the repository path with the commit, never a temporary
 * path. The rules object (which the report also shows) is left as written: the map goes beside it.
 */
export interface ExamCopy {
  /** The local file to open. */
  path: string
  /** The name to show for it, e.g. `eval/qrels.txt@0123456789ab`. */
  name: string
}

/** The file as the rules name it -> its copy. A file the map lacks is read where the rules say. */
export type ExamCopies = ReadonlyMap<string, ExamCopy>

/** Where to open a file the rules name. */
export function examPath(file: string, copies: ExamCopies | undefined): string {
  return copies?.get(file)?.path ?? file
}

/**
 * Reads one exam file (and the files read with it, such as the corpus listing of a dataset) from its copy:
 * `read` gets the path to open and the name to give the result; a refusal it raises names every copy by its
 * shown name instead of its temporary path. Without a copy, the file is read where the rules say, as is.
 */
export async function readExamFile<T>(file: string, copies: ExamCopies | undefined, read: (path: string, name: string) => Promise<T>): Promise<T> {
  const copy = copies?.get(file)
  if (copy === undefined || copies === undefined) return read(file, file)
  try {
    return await read(copy.path, copy.name)
  } catch (error) {
    throw isInputError(error) ? renameCopies(error, copies) : error
  }
}

/**
 * The same refusal with each copy's path replaced by its name, in the message, the hint and `where.file`.
 * Plain text replacement is exact here: a copy's path is a fresh temporary folder (mkdtemp's random suffix),
 * so it appears in a message only where a reader named that file.
 */
function renameCopies(error: InputError, copies: ExamCopies): InputError {
  const rename = (text: string): string => {
    let out = text
    for (const { path, name } of copies.values()) out = out.split(path).join(name)
    return out
  }
  const where = { ...error.where, ...(error.where.file === undefined ? {} : { file: rename(error.where.file) }) }
  const renamed = new InputError(where, rename(error.problem), error.hint === undefined ? undefined : rename(error.hint), { code: error.code })
  renamed.message = rename(error.message)
  return renamed
}
