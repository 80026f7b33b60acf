import { writeFile } from 'node:fs/promises'
import { InputError } from './errors.js'

/**
 * Writes a report file. The path is the user's (a CLI flag, the action's report-dir), so a folder that does
 * not exist or a read-only path is an input error naming the file (exit 2 / a failed step without a stack
 * trace), not an internal error.
 */
export async function writeOutput(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text)
  } catch (error) {
    throw new InputError(
      { file },
      `cannot write the output file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      'check that its folder exists and is writable'
    )
  }
}
