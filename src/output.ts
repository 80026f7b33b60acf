import { open } from 'node:fs/promises'
import { InputError } from './errors.js'

/**
 * Writes a report file, given whole or in chunks (the JSON report streams: jsonReportChunks). The path is the
 * user's (a CLI flag, the action's report-dir), so a folder that does not exist or a read-only path is an input
 * error naming the file (exit 2 / a failed step without a stack trace), not an internal error.
 */
export async function writeOutput(file: string, text: string | Iterable<string>): Promise<void> {
  try {
    const handle = await open(file, 'w')
    try {
      if (typeof text === 'string') await handle.writeFile(text)
      else for (const chunk of text) await handle.writeFile(chunk)
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw new InputError(
      { file },
      `cannot write the output file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      'check that its folder exists and is writable'
    )
  }
}
